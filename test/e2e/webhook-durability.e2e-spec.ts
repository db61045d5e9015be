// Durability (docs/delivery-and-deliverability.md#webhooks): events are recorded with the status change that causes them, so they
// wait for a worker that is not running yet, and outlive one killed mid-request. Its own
// database, shared by an API app and real worker processes.
import { WEBHOOK_QUEUE } from '../../src/platform/queue/webhook-queue';
import { exitOf, startWorkerProcess, WorkerProcess } from '../support/child-processes';
import { sendBody } from '../support/factories';
import { SmtpSink } from '../support/smtp-sink';
import { waitFor } from '../support/wait-for';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { ReceiverReply, WebhookReceiver } from '../support/webhook-receiver';
import { distinctEvents, header, verifiesRequest } from '../support/webhooks/signatures';
import { newPath, SIGNING_KEY, TIMEOUT } from '../support/webhooks/webhook-app';
import { allIn, deliveriesOf, secretOf, waitForLog } from '../support/webhooks/webhook-endpoints';

describe('durability: events outlive the processes (ROLE=api, then real worker processes)', () => {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  let smtpUrl: string;
  let databaseUrl: string;
  let api: TestApp;
  const workers: WorkerProcess[] = [];
  const held: (() => void)[] = [];

  // The same key for the API and the workers: the API serves the secret, the workers sign with it.
  const env = {
    SMTP_URL: '',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_SIGNING_KEY: SIGNING_KEY,
    WEBHOOK_RETRY_DELAYS: '1,1',
    WEBHOOK_TIMEOUT_MS: '5000',
    // pg-boss maintenance (which takes back the jobs of dead workers) runs every lease/2 seconds.
    DELIVERY_LEASE_SECONDS: '2',
  };

  beforeAll(async () => {
    await receiver.start();
    smtpUrl = sink.url(await sink.start());
    env.SMTP_URL = smtpUrl;
    databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
    api = await bootTestApp({ ...env, DATABASE_URL: databaseUrl });
  }, TIMEOUT);

  afterEach(async () => {
    for (const release of held.splice(0)) release();
    receiver.reply = () => ({ status: 200 });
    for (const worker of workers.splice(0)) await worker.stop();
  }, TIMEOUT);

  afterAll(async () => {
    try {
      await api?.close();
      await receiver.stop();
      await sink.stop();
    } finally {
      if (databaseUrl) await dropDatabase(databaseUrl);
    }
  }, TIMEOUT);

  async function spawnWorker(): Promise<WorkerProcess> {
    const worker = await startWorkerProcess({ ...env, DATABASE_URL: databaseUrl });
    workers.push(worker);
    return worker;
  }

  const webhookJobs = async (eventId: string): Promise<string[]> =>
    (
      await api.db.query(`SELECT state FROM pgboss.job WHERE name = $2 AND data->>'eventId' = $1 ORDER BY created_on`, [
        eventId,
        WEBHOOK_QUEUE,
      ])
    ).map((r: { state: string }) => r.state);

  /** The events this worker process logged as delivered (its JSON log lines on stdout). */
  const deliveredBy = (worker: WorkerProcess): string[] =>
    worker
      .stdout()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text))
      .filter((line) => line.context === 'Webhooks' && line.outcome === 'delivered')
      .map((line) => line.eventId);

  it(
    'records the events with the status change while no worker runs, and a worker started later delivers them',
    async () => {
      const userId = newUserId('outbox');
      const paths = [newPath('outbox'), newPath('outbox')];
      const ids: string[] = [];
      for (const path of paths) {
        ids.push(
          (
            await api.http
              .post('/sender/send')
              .set(bearer(userId))
              .send(sendBody({ webhook: { url: receiver.url(path) } }))
              .expect(201)
          ).body.id,
        );
      }
      // Recorded and queued with the send; no job fetched (no process has taken them). That the API
      // process posted none is held below, once the worker has: three posts per path, each logged by the worker.
      const queuedEvents: string[] = [];
      for (const id of ids) {
        const { deliveries } = await deliveriesOf(api.http, userId, { messageId: id });
        expect(deliveries).toEqual([
          expect.objectContaining({
            messageId: id,
            type: 'message.queued',
            sequence: 1,
            state: 'pending',
            attempts: [],
          }),
        ]);
        expect(await webhookJobs(deliveries[0].id)).toEqual(['created']);
        queuedEvents.push(deliveries[0].id);
      }

      const worker = await spawnWorker();
      try {
        for (const path of paths) {
          await receiver.waitFor(
            () => receiver.on(path).filter((r) => r.answered === 200).length >= 3,
            `three events at ${path}`,
            60_000,
          );
        }
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${worker.tail()}`, { cause: error });
      }
      const secret = await secretOf(api.http, userId);
      const eventIds: string[] = [];
      for (const [i, path] of paths.entries()) {
        const events = distinctEvents(receiver.on(path));
        expect(events.map(({ event }) => [event.type, event.data.message.id])).toEqual([
          ['message.queued', ids[i]],
          ['message.sending', ids[i]],
          ['message.sent', ids[i]],
        ]);
        expect(events[0].id).toBe(queuedEvents[i]);
        // Signed by the worker process, verified with the secret the API process serves.
        expect(receiver.on(path).map((r) => verifiesRequest(secret, r))).toEqual([true, true, true]);
        const delivered = await waitForLog(api.http, userId, ids[i], allIn('delivered', 3), 'three delivered events');
        expect(delivered.map((event) => event.attempts.length)).toEqual([1, 1, 1]);
        eventIds.push(...delivered.map((event) => event.id));
      }
      // The API process posted none of them, the queued ones included: the worker process logged
      // the delivery of each (and each was posted once, above).
      await waitFor(
        () => eventIds.every((id) => deliveredBy(worker).includes(id)),
        'the worker to log every delivery',
        10_000,
      ).catch(() => {
        throw new Error(
          `The worker logged as delivered ${JSON.stringify(deliveredBy(worker))}, not all of ${JSON.stringify(eventIds)}\n${worker.tail()}`,
        );
      });
      expect(queuedEvents.every((id) => deliveredBy(worker).includes(id))).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'delivers an event whose worker was killed (SIGKILL) while the receiver held its request open',
    async () => {
      const userId = newUserId('killed');
      const path = newPath('killed');
      receiver.reply = (request, attempt) =>
        request.path === path && attempt === 1
          ? new Promise<ReceiverReply>((resolve) => held.push(() => resolve({ status: 200 })))
          : { status: 200 };
      const a = await spawnWorker();
      const accepted = (
        await api.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ webhook: { url: receiver.url(path), status: ['queued'] } }))
          .expect(201)
      ).body;
      try {
        await receiver.waitFor(() => receiver.on(path).length === 1, 'the held request', 60_000);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${a.tail()}`, { cause: error });
      }
      const eventId = header(receiver.on(path)[0], 'webhook-id');
      a.child.kill('SIGKILL');
      expect(await exitOf(a.child, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      await receiver.waitFor(() => receiver.on(path)[0].clientGone, 'the killed worker hang up', 10_000);

      // Nothing was recorded by the dead worker: the event is still pending, its job still held.
      const [pending] = (await deliveriesOf(api.http, userId, { messageId: accepted.id })).deliveries;
      expect(pending).toMatchObject({ id: eventId, type: 'message.queued', state: 'pending', attempts: [] });
      expect(await webhookJobs(eventId)).toEqual(['active']);

      const b = await spawnWorker();
      // The webhook queue's lease is WEBHOOK_TIMEOUT_MS + 30 s (src/platform/queue/webhook-queue.ts); rather
      // than wait it out, move the job's start back so that pg-boss's maintenance finds it expired
      // now and gives it back to the queue, as it would once the lease ran out.
      await api.db.query(
        `UPDATE pgboss.job SET started_on = started_on - interval '1 hour' WHERE name = $2 AND data->>'eventId' = $1 AND state = 'active'`,
        [eventId, WEBHOOK_QUEUE],
      );
      try {
        await receiver.waitFor(
          () => receiver.withId(eventId).some((r) => r.answered === 200),
          'the event again',
          60_000,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${b.tail()}`, { cause: error });
      }
      const copies = receiver.withId(eventId);
      // At least once: the held copy (never answered) and the one that worker B delivered.
      expect(copies.length).toBeGreaterThanOrEqual(2);
      expect(copies[0].clientGone).toBe(true);
      expect(new Set(copies.map((r) => r.rawBody)).size).toBe(1);
      expect(verifiesRequest(await secretOf(api.http, userId), copies.at(-1)!)).toBe(true);
      const [delivered] = await waitForLog(api.http, userId, accepted.id, allIn('delivered', 1), 'the event delivered');
      expect(delivered.id).toBe(eventId);
      expect(delivered.attempts.at(-1)).toMatchObject({ statusCode: 200, error: null });
    },
    TIMEOUT,
  );
});
