// Retries (docs/delivery-and-deliverability.md#webhooks): what is retried, with the same webhook-id and body, and when it stops.
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { sendBody } from '../../support/factories';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { header, verifiesRequest } from '../../support/webhooks/signatures';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { allIn, deliveriesOf, ISO_UTC, secretOf, waitForLog } from '../../support/webhooks/webhook-endpoints';

describe('webhook events (ROLE=all, private networks allowed)', () => {
  // A timeout short enough to wait for, long beside the answer of a receiver that answers at once.
  const { receiver, t, send, scriptFor } = bootWebhookApp({ ...TO_LOOPBACK, WEBHOOK_TIMEOUT_MS: '2000' });

  describe('retries', () => {
    it(
      'retries a 500 with the same webhook-id and body, and logs both attempts',
      async () => {
        const userId = newUserId('retry');
        const path = newPath('retry');
        scriptFor(path, (attempt) => ({ status: attempt === 1 ? 500 : 200 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });

        // Between the attempts the log says when the next one is due.
        const between = await waitForLog(
          t.http,
          userId,
          accepted.id,
          (d) => d.length === 1 && d[0].attempts.length === 1,
          'the first attempt',
        );
        expect(between[0]).toMatchObject({ state: 'pending', attempts: [{ statusCode: 500, error: null }] });
        expect(between[0].nextAttemptAt).toMatch(ISO_UTC);
        const due = Date.parse(between[0].nextAttemptAt) - Date.parse(between[0].attempts[0].attemptedAt);
        expect(due).toBeGreaterThanOrEqual(900);
        expect(due).toBeLessThan(5000);

        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        const requests = receiver.on(path);
        expect(requests.map((r) => r.answered)).toEqual([500, 200]);
        expect(requests.map((r) => header(r, 'webhook-id'))).toEqual([delivery.id, delivery.id]);
        expect(requests[1].rawBody).toBe(requests[0].rawBody);
        const secret = await secretOf(t.http, userId);
        expect(requests.map((r) => verifiesRequest(secret, r))).toEqual([true, true]);
        expect(delivery.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([
          [500, null],
          [200, null],
        ]);
        expect(
          Date.parse(delivery.attempts[1].attemptedAt) - Date.parse(delivery.attempts[0].attemptedAt),
        ).toBeGreaterThanOrEqual(900);
        expect(delivery.nextAttemptAt).toBeNull();
      },
      TIMEOUT,
    );

    it(
      'stops at a 410: one request, state gone',
      async () => {
        const userId = newUserId('gone');
        const path = newPath('gone');
        scriptFor(path, () => ({ status: 410 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('gone', 1), 'a gone event');
        // No retry is waiting or running.
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        expect(receiver.on(path).map((r) => r.answered)).toEqual([410]);
        const [after] = (await deliveriesOf(t.http, userId, { messageId: accepted.id })).deliveries;
        expect(after).toMatchObject({ id: delivery.id, state: 'gone', nextAttemptAt: null });
        expect(after.attempts.map((a: any) => a.statusCode)).toEqual([410]);
      },
      TIMEOUT,
    );

    it(
      'gives up on a receiver slower than WEBHOOK_TIMEOUT_MS, logs an error without status code, and retries',
      async () => {
        const userId = newUserId('slow');
        const path = newPath('slow');
        scriptFor(path, (attempt) => (attempt === 1 ? { status: 200, delayMs: 5000 } : { status: 200 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        const [timedOut, succeeded] = delivery.attempts;
        expect(delivery.attempts).toHaveLength(2);
        expect(timedOut).toMatchObject({ statusCode: null, error: expect.stringMatching(/2000 ms/) });
        expect(timedOut.durationMs).toBeGreaterThanOrEqual(1950);
        expect(timedOut.durationMs).toBeLessThan(4500);
        expect(succeeded).toMatchObject({ statusCode: 200, error: null });
        const requests = receiver.on(path);
        expect(requests.map((r) => header(r, 'webhook-id'))).toEqual([delivery.id, delivery.id]);
        // The first request's client hung up before the receiver answered.
        expect(requests[0].clientGone).toBe(true);
        expect(requests[0].answered).toBeUndefined();
      },
      TIMEOUT,
    );

    it(
      'ends failed after 1 + retries attempts, and a replay once the receiver recovers delivers it',
      async () => {
        const userId = newUserId('failing');
        const path = newPath('failing');
        scriptFor(path, () => ({ status: 503 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [failed] = await waitForLog(t.http, userId, accepted.id, allIn('failed', 1), 'a failed event');
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        expect(receiver.on(path).map((r) => r.answered)).toEqual([503, 503, 503]);
        const [after] = (await deliveriesOf(t.http, userId, { messageId: accepted.id })).deliveries;
        expect(after).toMatchObject({ id: failed.id, state: 'failed', nextAttemptAt: null });
        expect(after.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503]);

        scriptFor(path, () => ({ status: 204 }));
        const replay = await t.http
          .post(`/user/webhook-deliveries/${failed.id}/replay`)
          .set(bearer(userId))
          .expect(202);
        expect(replay.body).toEqual({ id: failed.id, state: 'pending' });
        const [delivered] = await waitForLog(
          t.http,
          userId,
          accepted.id,
          allIn('delivered', 1),
          'the replay delivered',
        );
        expect(delivered.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 204]);
        expect(receiver.on(path).map((r) => header(r, 'webhook-id'))).toEqual([
          failed.id,
          failed.id,
          failed.id,
          failed.id,
        ]);
      },
      TIMEOUT,
    );

    it.each([302, 307])(
      'does not follow a %i redirect and counts it as a failure',
      async (code) => {
        const userId = newUserId('redirect');
        const path = newPath('redirect');
        const elsewhere = newPath('redirected-to');
        scriptFor(path, () => ({ status: code, headers: { location: receiver.url(elsewhere) } }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [failed] = await waitForLog(t.http, userId, accepted.id, allIn('failed', 1), 'a failed event');
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        expect(failed.attempts.map((a: any) => a.statusCode)).toEqual([code, code, code]);
        expect(receiver.on(path)).toHaveLength(3);
        expect(receiver.on(elsewhere)).toEqual([]);
      },
      TIMEOUT,
    );
  });
});

describe('retry delays of 0 seconds', () => {
  const { receiver, sink, t } = bootWebhookApp({
    DELIVERY_RETRY_DELAYS: '0',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_DELAYS: '0',
  });

  it(
    'still retry: a deferred message is sent and a failed webhook attempt is delivered at once',
    async () => {
      const userId = newUserId('zero');
      const path = newPath('zero');
      sink.reply = (_mail, attempt) => (attempt === 1 ? { code: 451, message: '4.3.0 Later' } : 'accept');
      receiver.reply = (request, attempt) =>
        request.path === path && attempt === 1 ? { status: 500 } : { status: 200 };
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ webhook: { url: receiver.url(path), status: ['sent'] } }))
        .expect(201);
      const sent = await waitForStatus(t.http, userId, body.id, 'sent');
      expect(sent.statusHistory.map((e: { status: string }) => e.status)).toEqual([
        'queued',
        'sending',
        'deferred',
        'sending',
        'sent',
      ]);
      const [delivery] = await waitForLog(t.http, userId, body.id, allIn('delivered', 1), 'a delivered event');
      expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    },
    TIMEOUT,
  );
});
