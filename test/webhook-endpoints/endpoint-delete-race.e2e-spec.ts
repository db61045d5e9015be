// Deleting an endpoint while the same user's messages change status (SPEC §11): the fan-out must
// never write a delivery for an endpoint whose delete commits during its statement. It did: the
// statement's snapshot still showed the endpoint, its foreign-key check then found it deleted
// (webhook_events_endpoint_id_fkey), and the send answered 500 or the claim failed and left its
// job to the lease. The delete is held open in a transaction of the test's own, the change is
// seen waiting on it (a real lock wait in pg_stat_activity), then the delete commits.
import type { QueryRunner } from 'typeorm';
import { WEBHOOK_QUEUE } from '../../src/queue/webhook-queue';
import { sendBody } from '../support/factories';
import { waitForQueueSettled } from '../support/queue-settled';
import { bearer, newUserId } from '../support/tokens';
import { waitForAsync, waitForStatus } from '../support/wait-for';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../webhooks/webhook-app';
import { createEndpoint, typesAt } from './endpoint-support';

describe('webhook endpoints: deleted while messages change status (SPEC §11)', () => {
  const { receiver, t } = bootWebhookApp(TO_LOOPBACK);

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

  /** Resolves once a statement waits for the held delete's lock: the fan-out met it. */
  async function fanOutWaiting(): Promise<void> {
    const [{ pid }] = await held!.query('SELECT pg_backend_pid() AS pid');
    await waitForAsync(async () => {
      const waiting: unknown[] = await t.db.query(
        `SELECT 1 FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`,
        [pid],
      );
      return waiting.length > 0;
    }, 'a fan-out waiting on the endpoint being deleted');
  }

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
      await fanOutWaiting();
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
      // Scheduled: the worker's change to queued comes while the delete is held.
      const scheduledAt = new Date(Date.now() + 3_000).toISOString();
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ scheduledAt }))
        .expect(201);
      await receiver.waitFor(() => receiver.on(deletedPath).length > 0, 'message.scheduled at the endpoint to delete');

      await holdDelete(deleted.id);
      await fanOutWaiting();
      await commitDelete();

      // Within the default 20 s, far below the lease a failed claim waited out.
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
});
