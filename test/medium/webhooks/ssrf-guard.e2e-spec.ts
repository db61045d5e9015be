// The SSRF guard (docs/delivery-and-deliverability.md#webhooks): with WEBHOOK_ALLOW_PRIVATE_NETWORKS unset, no webhook reaches a
// private, loopback or link-local address, neither at send time nor at delivery.
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { bootWebhookApp, TIMEOUT } from '../../support/webhooks/webhook-app';
import { allIn, deliveriesOf, waitForLog } from '../../support/webhooks/webhook-endpoints';

describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset)', () => {
  const { receiver, t } = bootWebhookApp({ WEBHOOK_RETRY_DELAYS: '1,1', WEBHOOK_TIMEOUT_MS: '500' });

  it.each([
    'http://127.0.0.1/hook',
    'http://127.0.0.1:8080/hook',
    'https://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://172.16.5.4/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:169.254.169.254]/latest/meta-data',
    'http://[::ffff:7f00:1]/hook',
    'http://[::7f00:1]/hook',
    'http://0x7f000001/hook',
    'http://[64:ff9b::7f00:1]/hook',
    'http://[::]/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    'http://100.64.0.1/',
    'http://0.0.0.0/hook',
    'http://224.0.0.1/hook',
  ])('refuses %s with 400 naming webhook.url, and stores nothing', async (url) => {
    const userId = newUserId('ssrf');
    const response = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ webhook: { url } }))
      .expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual([
      { field: 'webhook.url', message: expect.stringMatching(/private, loopback or link-local/) },
    ]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM webhook_events WHERE user_id = $1`, [
      userId,
    ]);
    expect(count).toBe(0);
  });

  it('names the setting that allows private networks, in a single send and in a batch', async () => {
    const userId = newUserId('ssrf-hint');
    const message =
      'must not name a private, loopback or link-local address (127.0.0.1); an operator can allow private networks with WEBHOOK_ALLOW_PRIVATE_NETWORKS=true';

    const single = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ webhook: { url: 'http://127.0.0.1:3000/hook' } }))
      .expect(400);
    const batch = await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .send({ messages: [sendBody(), sendBody({ webhook: { url: 'http://127.0.0.1/hook' } })] })
      .expect(400);

    expect(single.body.errors).toEqual([{ field: 'webhook.url', message }]);
    expect(batch.body.errors).toEqual([{ field: 'messages[1].webhook.url', message }]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  it('refuses a webhook URL with a user name or password', async () => {
    const userId = newUserId('userinfo');
    const response = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ webhook: { url: 'https://user:secret@hooks.example.com/mailroom' } }))
      .expect(400);
    expect(response.body.errors).toEqual([
      { field: 'webhook.url', message: 'must not contain a user name or password' },
    ]);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 0 });
  });

  // class-validator's IsUrl takes this host; the WHATWG URL parser (which delivery uses) refuses it.
  it('refuses a webhook URL the WHATWG URL parser refuses with 400 naming webhook.url, not a 500', async () => {
    const userId = newUserId('whatwg');
    const response = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ webhook: { url: 'https://xn--a.example/hook' } }));
    expect({ status: response.status, fields: response.body.errors?.map((e: { field: string }) => e.field) }).toEqual({
      status: 400,
      fields: ['webhook.url'],
    });
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  it('accepts a public address at send time', async () => {
    const userId = newUserId('public');
    // 'failed' never happens to a message the sink accepts, so no request leaves the machine.
    const response = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ webhook: { url: 'http://93.184.215.14/hook', status: ['failed'] } }))
      .expect(201);
    await waitForStatus(t.http, userId, response.body.id, 'sent');
    expect((await deliveriesOf(t.http, userId)).total).toBe(0);
  });

  it(
    'accepts a hostname that resolves to loopback, then refuses it on every attempt without a request',
    async () => {
      const userId = newUserId('localhost');
      const url = `http://localhost:${receiver.listeningPort}/hook`;
      const accepted = (
        await t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ webhook: { url } }))
          .expect(201)
      ).body;
      await waitForStatus(t.http, userId, accepted.id, 'sent');
      const log = await waitForLog(t.http, userId, accepted.id, allIn('failed', 3), 'three failed events');
      expect(log.map((d) => d.type)).toEqual(['message.sent', 'message.sending', 'message.queued']);
      for (const delivery of log) {
        expect(delivery.url).toBe(url);
        expect(delivery.attempts).toHaveLength(3);
        for (const attempt of delivery.attempts) {
          expect(attempt).toMatchObject({
            statusCode: null,
            error: expect.stringMatching(
              /^localhost resolves to .*may not reach .*WEBHOOK_ALLOW_PRIVATE_NETWORKS=true/,
            ),
          });
        }
      }
      expect(receiver.requests).toEqual([]);
    },
    TIMEOUT,
  );
});
