// A failed attempt recorded while a success ends the endpoint's failing streak
// (docs/delivery-and-deliverability.md#webhooks): the failure must count from the streak the
// success left, not from the one its statement first saw. It did not: the disable test was read
// from the statement's snapshot (4 failed attempts over an hour), so the failure that waited for
// the success disabled an endpoint that had just answered 2xx. The success's reset is held open in
// a transaction of the test's own, the failure is seen waiting on it, then the reset commits.
import type { QueryRunner } from 'typeorm';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { waitWhileChanging } from '../../support/wait-for';
import { createEndpoint } from '../../support/webhook-endpoints/endpoint-support';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

describe('webhook endpoints: a failure recorded while a success ends the streak (docs/delivery-and-deliverability.md#webhooks)', () => {
  // A POST held open by the test must not time out: it is answered when the test says. Failing
  // for an hour over 5 failed attempts disables an endpoint.
  const { receiver, t } = bootWebhookApp({
    ...TO_LOOPBACK,
    WEBHOOK_TIMEOUT_MS: '60000',
    WEBHOOK_DISABLE_AFTER_SECONDS: '3600',
  });

  let held: QueryRunner | undefined;
  afterEach(async () => {
    await held?.commitTransaction();
    await held?.release();
  });

  it(
    "counts the failure from the success's reset: the endpoint stays enabled",
    async () => {
      const userId = newUserId('streak-race');
      const path = newPath('streak');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(path));
      // One failure short of being disabled: failing for an hour over 4 failed attempts.
      await t.db.query(
        `UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour', failed_attempts = 4 WHERE id = $1`,
        [endpoint.id],
      );
      let answer: (reply: { status: number }) => void = () => undefined;
      // The first attempt is held open until the test answers it; its retries fail at once.
      receiver.reply = (request, attempt) =>
        request.path === path && attempt === 1 ? new Promise((resolve) => (answer = resolve)) : { status: 500 };
      const test = await t.http.post(`/user/webhook-endpoints/${endpoint.id}/test`).set(bearer(userId)).expect(202);
      await receiver.waitFor(() => receiver.withId(test.body.eventId).length === 1, 'the test event, held open');

      // What a concurrent success writes, left uncommitted while this attempt fails.
      held = t.db.createQueryRunner();
      await held.connect();
      await held.startTransaction();
      await held.query(`UPDATE webhook_endpoints SET failing_since = NULL, failed_attempts = 0 WHERE id = $1`, [
        endpoint.id,
      ]);
      const [{ pid }] = await held.query('SELECT pg_backend_pid() AS pid');
      answer({ status: 500 });
      await waitWhileChanging(
        async () =>
          (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`, [pid])).length > 0,
        (waiting) => waiting,
        "the failure's record waiting on the success's reset",
      );
      await held.commitTransaction();
      await held.release();
      held = undefined;
      // WEBHOOK_RETRY_DELAYS=1,1: its retries fail too, 3 failed attempts in all since the reset.
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      const { body } = await t.http.get(`/user/webhook-endpoints/${endpoint.id}`).set(bearer(userId)).expect(200);
      expect(body).toMatchObject({ enabled: true, disabledReason: null });
      expect(receiver.withId(test.body.eventId).map((request) => request.answered)).toEqual([500, 500, 500]);
      const [streak] = await t.db.query(
        `SELECT failed_attempts AS "failedAttempts" FROM webhook_endpoints WHERE id = $1`,
        [endpoint.id],
      );
      expect(streak).toEqual({ failedAttempts: 3 });
    },
    TIMEOUT,
  );
});
