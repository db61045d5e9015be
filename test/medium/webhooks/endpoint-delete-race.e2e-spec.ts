// Deleting an endpoint while the same user's messages change status (docs/delivery-and-deliverability.md#webhooks): the fan-out must
// never write a delivery for an endpoint whose delete commits during its statement. It did: the
// statement's snapshot still showed the endpoint, its foreign-key check then found it deleted
// (webhook_events_endpoint_id_fkey), and the send answered 500 or the claim failed and left its
// job to the lease. The delete is held open in a transaction of the test's own, the change is
// seen waiting on it (a real lock wait in pg_stat_activity), then the delete commits. The same
// for an attempt's log: a success whose endpoint is deleted while its POST is answered.
import type { QueryRunner } from 'typeorm';
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { sendBody } from '../../support/factories';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus, waitWhileChanging } from '../../support/wait-for';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { createEndpoint, typesAt } from '../../support/webhook-endpoints/endpoint-support';

describe('webhook endpoints: deleted while messages change status (docs/delivery-and-deliverability.md#webhooks)', () => {
  // A POST held open by the test must not time out: its success is what is under test.
  const { receiver, t } = bootWebhookApp({ ...TO_LOOPBACK, WEBHOOK_TIMEOUT_MS: '60000' });

  let held: QueryRunner | undefined;
  afterEach(() => commitDelete());

  /** Deletes the endpoint in a transaction left open until commitDelete(). */
  async function holdDelete(endpointId: string): Promise<void> {
    held = t.db.createQueryRunner();
    await held.connect();
    await held.startTransaction();
    await held.query('DELETE FROM webhook_endpoints WHERE id = $1', [endpointId]);
  }

  async function commitDelete(): Promise<void> {
    if (!held) return;
    const runner = held;
    held = undefined;
    await runner.commitTransaction();
    await runner.release();
  }

  /**
   * Resolves once a statement waits for the held delete's lock: the fan-out or the attempt met it. Waited for
   * while `progress` (what leads there: a job's state, say) changes, not for a fixed time.
   */
  async function waitedOnDelete(progress: () => unknown = () => undefined): Promise<void> {
    const [{ pid }] = await held!.query('SELECT pg_backend_pid() AS pid');
    await waitWhileChanging(
      async () => {
        const waiting: unknown[] = await t.db.query(
          `SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`,
          [pid],
        );
        return { waiting: waiting.length > 0, progress: await progress() };
      },
      (seen) => seen.waiting,
      'a statement waiting on the endpoint being deleted',
    );
  }

  /** The states of a message's delivery jobs. */
  const jobStates = async (messageId: string): Promise<string[]> =>
    (
      await t.db.query(`SELECT state FROM pgboss.job WHERE name = $1 AND data->>'messageId' = $2 ORDER BY id`, [
        DELIVERY_QUEUE,
        messageId,
      ])
    ).map((row: { state: string }) => row.state);

  it(
    'answers a send whose fan-out meets a delete, and writes nothing for the deleted endpoint',
    async () => {
      const userId = newUserId('delete-race-send');
      const [keeperPath, deletedPath] = [newPath('keeper'), newPath('deleted')];
      await createEndpoint(t.http, userId, receiver.url(keeperPath));
      const deleted = await createEndpoint(t.http, userId, receiver.url(deletedPath));

      await holdDelete(deleted.id);
      const answer = t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody())
        .then((response) => response);
      await waitedOnDelete();
      await commitDelete();
      const { status, body } = await answer;
      expect({ status, problem: status === 201 ? undefined : body }).toEqual({ status: 201, problem: undefined });

      await waitForStatus(t.http, userId, body.id, 'sent');
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
      expect(typesAt(receiver, keeperPath)).toEqual(['message.queued', 'message.sending', 'message.sent']);
      expect(typesAt(receiver, deletedPath)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "records a status change whose fan-out meets a delete at once, not after the claim's lease",
    async () => {
      const userId = newUserId('delete-race-status');
      const [keeperPath, deletedPath] = [newPath('keeper'), newPath('deleted')];
      await createEndpoint(t.http, userId, receiver.url(keeperPath));
      const deleted = await createEndpoint(t.http, userId, receiver.url(deletedPath));
      // Scheduled far ahead, then made due only once the delete is held: the worker's change to
      // queued meets it whatever the machine's load (as the delivery loop finds any due job).
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }))
        .expect(201);
      await receiver.waitFor(() => receiver.on(deletedPath).length > 0, 'message.scheduled at the endpoint to delete');

      await holdDelete(deleted.id);
      await t.db.query(
        `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND data->>'messageId' = $2 AND state = 'created'`,
        [DELIVERY_QUEUE, body.id],
      );
      await waitedOnDelete(() => jobStates(body.id));
      await commitDelete();

      // Its history grows on at once: a claim that failed left it still for the lease, far past waitForStatus's 20 s.
      const sent = await waitForStatus(t.http, userId, body.id, 'sent');
      expect(sent.statusHistory.map((entry: { status: string }) => entry.status)).toEqual([
        'scheduled',
        'queued',
        'sending',
        'sent',
      ]);
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
      expect(typesAt(receiver, keeperPath)).toEqual([
        'message.queued',
        'message.scheduled',
        'message.sending',
        'message.sent',
      ]);
      expect(typesAt(receiver, deletedPath)).toEqual(['message.scheduled']);
    },
    TIMEOUT,
  );

  it(
    'logs nothing and fails nothing for a successful attempt whose endpoint is deleted while the POST is answered',
    async () => {
      const userId = newUserId('delete-race-attempt');
      const path = newPath('answered');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(path));
      let answer: (reply: { status: number }) => void = () => undefined;
      receiver.reply = (request) =>
        request.path === path ? new Promise((resolve) => (answer = resolve)) : { status: 200 };
      const test = await t.http.post(`/user/webhook-endpoints/${endpoint.id}/test`).set(bearer(userId)).expect(202);
      await receiver.waitFor(() => receiver.withId(test.body.eventId).length === 1, 'the test event, held open');
      const [{ id: deliveryId }] = await t.db.query(`SELECT id FROM webhook_events WHERE endpoint_id = $1`, [
        endpoint.id,
      ]);

      // The attempt has begun (the receiver holds its POST), so the delete does not wait for it.
      await holdDelete(endpoint.id);
      answer({ status: 200 });
      await waitedOnDelete();
      await commitDelete();
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      // Logged against a delivery being deleted, its insert would fail on the foreign key and
      // the job would go back for a retry: it completed at once, with nothing left behind.
      const jobs = await t.db.query(
        `SELECT state, retry_count AS "retryCount", output FROM pgboss.job WHERE name = $1 AND data->>'eventId' = $2`,
        [WEBHOOK_QUEUE, deliveryId],
      );
      expect(jobs).toEqual([{ state: 'completed', retryCount: 0, output: null }]);
      const left = await t.db.query(
        `SELECT (SELECT count(*) FROM webhook_events WHERE id = $1)::int AS deliveries,
                (SELECT count(*) FROM webhook_attempts WHERE event_id = $1)::int AS attempts`,
        [deliveryId],
      );
      expect(left).toEqual([{ deliveries: 0, attempts: 0 }]);
      expect(receiver.withId(test.body.eventId).map((request) => request.answered)).toEqual([200]);
    },
    TIMEOUT,
  );
});
