import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Clock } from '../../../src/platform/clock';
import { sendBody } from '../../support/factories';
import { SmtpSink } from '../../support/smtp-sink';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

// docs/delivery-and-deliverability.md#relays-and-failover: SMTP_URL naming several relays, tried
// in order within one attempt, each a real SMTP server (or a port nobody listens on).

interface Entry {
  status: string;
  detail: string | null;
  recipient?: string;
}
const statuses = (message: { statusHistory: Entry[] }) => message.statusHistory.map((e) => e.status);
const sentEntry = (message: { statusHistory: Entry[] }) => message.statusHistory.find((e) => e.status === 'sent')!;
const portOf = (url: string) => new URL(url).port;
const named = (url: string) => `(relay 127.0.0.1:${portOf(url)})`;

/** A loopback port that was free a moment ago and is closed now: a connection to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function send(t: TestApp, userId: string, overrides: Record<string, unknown> = {}) {
  return (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201)).body;
}

describe('a first relay that refuses connections', () => {
  const b = new SmtpSink();
  let t: TestApp;
  let closed: string;
  let bUrl: string;

  beforeAll(async () => {
    closed = `smtp://127.0.0.1:${await closedPort()}`;
    bUrl = b.url(await b.start());
    t = await bootTestApp(
      { ROLE: 'all', SMTP_URL: `${closed},${bUrl}`, DELIVERY_RETRY_DELAYS: '600' },
      { isolatedDatabase: true },
    );
  });
  afterAll(async () => {
    await t.close();
    await b.stop();
  });

  it('is passed over for the second within the same attempt, whose reply the history names', async () => {
    const userId = newUserId();
    const message = await send(t, userId);

    const sent = await waitForStatus(t.http, userId, message.id, 'sent');

    expect(statuses(sent)).toEqual(['queued', 'sending', 'sent']);
    expect(sentEntry(sent).detail).toMatch(/^250 2\.0\.0 Ok: queued as \d+ \(relay 127\.0\.0\.1:\d+\)$/);
    expect(sentEntry(sent).detail).toContain(named(bUrl));
    expect(b.acceptedFor(message.id)).toHaveLength(1);
  });
});

describe('two relays that answer', () => {
  const [a, b] = [new SmtpSink(), new SmtpSink()];
  let t: TestApp;
  let aUrl: string;
  let bUrl: string;
  // The process's clock, moved past the skip window (60 s) before each test so that each starts
  // with both relays in their configured order; within a test it moves only when the test says.
  let offsetMs = 0;
  let clock: jest.SpyInstance;

  beforeAll(async () => {
    [aUrl, bUrl] = [a.url(await a.start()), b.url(await b.start())];
    clock = jest.spyOn(Clock.prototype, 'now').mockImplementation(() => new Date(Date.now() + offsetMs));
    t = await bootTestApp(
      { ROLE: 'all', SMTP_URL: `${aUrl},${bUrl}`, DELIVERY_RETRY_DELAYS: '600' },
      { isolatedDatabase: true },
    );
  });
  beforeEach(() => {
    offsetMs += 61_000;
  });
  afterEach(() => {
    a.senderReply = () => undefined;
    b.senderReply = () => undefined;
    a.refuseWith.clear();
    b.refuseWith.clear();
  });
  afterAll(async () => {
    await t.close();
    clock.mockRestore();
    await Promise.all([a.stop(), b.stop()]);
  });

  it('moves a message the first answers 421 at MAIL FROM to the second, in the same attempt', async () => {
    const userId = newUserId();
    a.senderReply = () => ({ code: 421, message: '4.3.2 Service shutting down' });
    const message = await send(t, userId, { sender: 'first@example.com' });

    const sent = await waitForStatus(t.http, userId, message.id, 'sent');

    expect(statuses(sent)).toEqual(['queued', 'sending', 'sent']);
    expect(sentEntry(sent).detail).toMatch(
      new RegExp(`^250 2\\.0\\.0 Ok: queued as \\d+ \\${named(bUrl).slice(0, -1)}\\)$`),
    );
    expect(a.mailFrom).toContain('first@example.com');
    expect(a.acceptedFor(message.id)).toEqual([]);
    expect(b.acceptedFor(message.id)).toHaveLength(1);
  });

  it("takes the first relay's 550 for a recipient as that recipient's answer, asking the second nothing", async () => {
    const userId = newUserId();
    a.refuseWith.set('gone@example.com', { code: 550, message: '5.1.1 No such user here' });
    const message = await send(t, userId, { to: ['ada@example.com', 'gone@example.com'] });

    const sent = await waitForStatus(t.http, userId, message.id, 'sent');

    expect(statuses(sent)).toEqual(['queued', 'sending', 'sent', 'failed']);
    expect(sentEntry(sent).detail).toContain(named(aUrl));
    expect(sent.statusHistory.at(-1)).toMatchObject({
      recipient: 'gone@example.com',
      detail: '550 5.1.1 No such user here',
    });
    expect(sent.recipients.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([
      ['ada@example.com', 'sent'],
      ['gone@example.com', 'failed'],
    ]);
    expect(a.acceptedFor(message.id)[0].to).toEqual(['ada@example.com']);
    expect(b.attemptsFor(message.id)).toBe(0);
    expect(b.mailFrom).not.toContain('billing@example.com');
  });

  it("takes the second relay's 550 as the answer after the first failed, naming the second alone", async () => {
    const userId = newUserId();
    a.senderReply = (address) => (address === 'moved@example.com' ? { code: 421, message: '4.3.2 Busy' } : undefined);
    b.refuseWith.set('lost@example.com', { code: 550, message: '5.1.1 No such user here' });
    const message = await send(t, userId, { sender: 'moved@example.com', to: ['lost@example.com'] });

    const failed = await waitForStatus(t.http, userId, message.id, 'failed');

    // The message's entry, then the refused recipient's own.
    expect(statuses(failed)).toEqual(['queued', 'sending', 'failed', 'failed']);
    const entry = failed.statusHistory[2];
    expect(failed.statusHistory[3]).toMatchObject({
      recipient: 'lost@example.com',
      detail: '550 5.1.1 No such user here',
    });
    expect(entry.detail).toContain(`No such user here ${named(bUrl)}`);
    expect(entry.detail).not.toContain(named(aUrl));
    expect(failed.recipients.map((r: { status: string; detail: string }) => [r.status, r.detail])).toEqual([
      ['failed', '550 5.1.1 No such user here'],
    ]);
    // The address does not exist, as the second relay said: suppressed as a hard bounce.
    const { body } = await t.http.get('/user/suppressions').set(bearer(userId)).expect(200);
    expect(body.suppressions).toEqual([expect.objectContaining({ email: 'lost@example.com', reason: 'hard_bounce' })]);
  });

  it('skips a relay that failed for the next message, and tries it first again once the window has passed', async () => {
    const userId = newUserId();
    a.senderReply = (address) =>
      address === 'once@example.com' ? { code: 421, message: '4.3.2 Try again later' } : undefined;
    const first = await send(t, userId, { sender: 'once@example.com' });
    expect(sentEntry(await waitForStatus(t.http, userId, first.id, 'sent')).detail).toContain(named(bUrl));

    // Within the window: the second relay first, the first one not even greeted with MAIL FROM.
    const second = await send(t, userId, { sender: 'next@example.com' });
    expect(sentEntry(await waitForStatus(t.http, userId, second.id, 'sent')).detail).toContain(named(bUrl));
    expect(a.mailFrom).not.toContain('next@example.com');
    expect(b.acceptedFor(second.id)).toHaveLength(1);

    // 60 s later (by the process's clock), the first relay is back in its place.
    offsetMs += 60_000;
    const third = await send(t, userId, { sender: 'later@example.com' });
    expect(sentEntry(await waitForStatus(t.http, userId, third.id, 'sent')).detail).toContain(named(aUrl));
    expect(a.acceptedFor(third.id)).toHaveLength(1);
    expect(b.acceptedFor(third.id)).toEqual([]);
  });

  it('defers a message every relay refused for now, naming each; with all skipped, still tries them in order', async () => {
    const userId = newUserId();
    // Which relay was offered which message, in the order the offers came.
    const offers: string[] = [];
    const busy = (relay: string) => (address: string) => {
      if (!address.startsWith('busy')) return undefined;
      offers.push(`${relay} ${address}`);
      return { code: 421, message: '4.3.2 Too busy' };
    };
    [a.senderReply, b.senderReply] = [busy('a'), busy('b')];
    const first = await send(t, userId, { sender: 'busy1@example.com' });

    const deferred = await waitForStatus(t.http, userId, first.id, 'deferred');

    expect(deferred.statusHistory.at(-1).detail).toBe(
      `421 4.3.2 Too busy ${named(aUrl)}; 421 4.3.2 Too busy ${named(bUrl)}`,
    );
    // Both skipped now: the next message is still offered to each, in the configured order.
    const second = await send(t, userId, { sender: 'busy2@example.com' });
    await waitForStatus(t.http, userId, second.id, 'deferred');
    // smtp-server closes the connection after its 421, and nodemailer's pool may offer the message
    // once more on a new one before it reports the failure: one relay's repeats count as one offer.
    expect(offers.filter((offer, i) => offer !== offers[i - 1])).toEqual([
      'a busy1@example.com',
      'b busy1@example.com',
      'a busy2@example.com',
      'b busy2@example.com',
    ]);
  });
});
