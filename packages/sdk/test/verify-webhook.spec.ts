// verifyWebhook against `standardwebhooks` (the specification's own library, which nobody here
// wrote) as the signer: what it signs verifies, anything changed does not. The events the real
// server posts are verified in test/medium/sdk/webhooks.e2e-spec.ts.
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const event = JSON.stringify({
  id: randomUUID(),
  type: 'endpoint.test',
  timestamp: '2026-03-01T12:00:00.000Z',
  data: { endpointId: randomUUID() },
});

/** The headers `secrets` sign `payload` with, the library's way, at `at`. */
function signed(payload: string, secrets: string[], at = new Date()) {
  const id = randomUUID();
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, payload)).join(' '),
  };
}

async function refusal(verification: Promise<unknown>): Promise<string> {
  const error = await verification.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as Error).message;
}

describe('verifyWebhook', () => {
  it('accepts what standardwebhooks signs, and returns the parsed event', async () => {
    const secret = newSecret();
    const headers = signed(event, [secret]);
    expect(await verifyWebhook(event, headers, secret)).toEqual(JSON.parse(event));
    // The library agrees with itself on these headers: they are a fair sample.
    expect(new Webhook(secret).verify(event, headers)).toEqual(JSON.parse(event));
  });

  it('takes fetch Headers, any-case plain headers and the body as bytes', async () => {
    const secret = newSecret();
    const headers = signed(event, [secret]);
    expect(await verifyWebhook(event, new Headers(headers), secret)).toEqual(JSON.parse(event));
    const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(await verifyWebhook(new TextEncoder().encode(event), upper, secret)).toEqual(JSON.parse(event));
  });

  it('accepts either secret while a rotation puts two signatures in the header', async () => {
    const [older, newer] = [newSecret(), newSecret()];
    const headers = signed(event, [newer, older]);
    await expect(verifyWebhook(event, headers, older)).resolves.toBeDefined();
    await expect(verifyWebhook(event, headers, newer)).resolves.toBeDefined();
    expect(await refusal(verifyWebhook(event, headers, newSecret()))).toMatch(/No webhook-signature matches/);
  });

  it('refuses a changed body, id or timestamp, and another secret', async () => {
    const secret = newSecret();
    const headers = signed(event, [secret]);
    await refusal(verifyWebhook(event.replace('endpoint.test', 'endpoint.tesT'), headers, secret));
    await refusal(verifyWebhook(`${event} `, headers, secret));
    await refusal(verifyWebhook(event, { ...headers, 'webhook-id': randomUUID() }, secret));
    const later = String(Number(headers['webhook-timestamp']) + 1);
    await refusal(verifyWebhook(event, { ...headers, 'webhook-timestamp': later }, secret));
    await refusal(verifyWebhook(event, headers, newSecret()));
  });

  it('refuses a timestamp outside the tolerance either way, which the option widens', async () => {
    const secret = newSecret();
    const sixMinutes = 6 * 60 * 1000;
    const old = signed(event, [secret], new Date(Date.now() - sixMinutes));
    const future = signed(event, [secret], new Date(Date.now() + sixMinutes));
    expect(await refusal(verifyWebhook(event, old, secret))).toMatch(/tolerance/);
    expect(await refusal(verifyWebhook(event, future, secret))).toMatch(/tolerance/);
    await expect(verifyWebhook(event, old, secret, { toleranceSeconds: 7 * 60 })).resolves.toBeDefined();
    // The library refuses the same request.
    expect(() => new Webhook(secret).verify(event, old)).toThrow();
  });

  it('refuses missing headers, other versions and signatures that are not base64', async () => {
    const secret = newSecret();
    const headers = signed(event, [secret]);
    const { 'webhook-signature': signature, ...unsigned } = headers;
    expect(await refusal(verifyWebhook(event, unsigned, secret))).toMatch(/Missing/);
    await refusal(verifyWebhook(event, { ...headers, 'webhook-signature': signature.replace('v1,', 'v2,') }, secret));
    await refusal(verifyWebhook(event, { ...headers, 'webhook-signature': 'v1,not*base64' }, secret));
    await refusal(verifyWebhook(event, { ...headers, 'webhook-signature': 'v1' }, secret));
  });
});
