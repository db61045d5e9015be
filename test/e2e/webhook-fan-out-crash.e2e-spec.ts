// A worker killed with SIGKILL in the middle of a fan-out (docs/delivery-and-deliverability.md#webhooks, docs/scaling.md): every event still
// reaches every endpoint, and a repeat carries the same webhook-id and body. An API app and real
// worker processes share a database of their own.
import { WEBHOOK_QUEUE } from '../../src/platform/queue/webhook-queue';
import { exitOf, startWorkerProcess, WorkerProcess } from '../support/child-processes';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { WebhookReceiver } from '../support/webhook-receiver';
import { deliveriesOf } from '../support/webhooks/webhook-endpoints';
import { newPath, SIGNING_KEY, TIMEOUT } from '../support/webhooks/webhook-app';
import { createEndpoint, Endpoint, eventsAt } from '../support/webhook-endpoints/endpoint-support';
import { BOTH, verdicts } from '../support/webhook-endpoints/library-verification';

const EVENTS = 6;

describe('fan-out survives a killed worker (ROLE=api, then real worker processes)', () => {
  const receiver = new WebhookReceiver();
  let databaseUrl: string;
  let api: TestApp;
  const workers: WorkerProcess[] = [];
  const held: (() => void)[] = [];
  const env = {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_SIGNING_KEY: SIGNING_KEY,
    // The API and the workers share no DATA_DIR, so they share the key that seals endpoint secrets.
    DATA_ENCRYPTION_KEY: 'fan-out-crash-data-encryption-key-0123456789',
    WEBHOOK_RETRY_DELAYS: '1,1',
    WEBHOOK_TIMEOUT_MS: '20000',
    DELIVERY_LEASE_SECONDS: '2',
  };

  beforeAll(async () => {
    await receiver.start();
    databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
    api = await bootTestApp({ ...env, DATABASE_URL: databaseUrl });
  }, TIMEOUT);

  afterAll(async () => {
    try {
      for (const release of held.splice(0)) release();
      for (const worker of workers) await worker.stop();
      await api?.close();
      await receiver.stop();
    } finally {
      if (databaseUrl) await dropDatabase(databaseUrl);
    }
  }, TIMEOUT);

  const spawnWorker = async () => {
    const worker = await startWorkerProcess({ ...env, DATABASE_URL: databaseUrl });
    workers.push(worker);
    return worker;
  };

  it(
    'delivers every event to each of 3 endpoints after a kill -9 mid-fan-out, repeats only with the same webhook-id',
    async () => {
      const userId = newUserId('crash');
      const paths = ['one', 'two', 'three'].map(newPath);
      const endpoints: Endpoint[] = [];
      for (const path of paths) endpoints.push(await createEndpoint(api.http, userId, receiver.url(path)));
      // The second endpoint holds its requests open until released: the worker dies with them in flight.
      let holding = true;
      receiver.reply = (request) =>
        holding && request.path === paths[1]
          ? new Promise((resolve) => held.push(() => resolve({ status: 200 })))
          : { status: 200 };
      for (let i = 0; i < EVENTS; i++)
        await api.http
          .post('/user/suppressions')
          .set(bearer(userId))
          .send({ email: `r${i}@example.com` })
          .expect(201);
      const log = await deliveriesOf(api.http, userId, { take: 100 });
      const eventIds = new Set<string>(log.deliveries.map((d: { eventId: string }) => d.eventId));
      expect([log.total, eventIds.size]).toEqual([EVENTS * 3, EVENTS]);

      const a = await spawnWorker();
      try {
        await receiver.waitFor(() => receiver.on(paths[1]).length >= 2, 'requests held at the second endpoint', 60_000);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${a.tail()}`, { cause: error });
      }
      a.child.kill('SIGKILL');
      expect(await exitOf(a.child, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      holding = false;
      // The dead worker's jobs come back once their lease is over (WEBHOOK_TIMEOUT_MS + 30 s): moved
      // back here, as the lease running out would, so that pg-boss's maintenance takes them back now.
      await api.db.query(
        `UPDATE pgboss.job SET started_on = started_on - interval '1 hour' WHERE name = $1 AND state = 'active'`,
        [WEBHOOK_QUEUE],
      );
      const b = await spawnWorker();
      try {
        await receiver.waitFor(
          () =>
            paths.every(
              (path) =>
                new Set(
                  receiver
                    .on(path)
                    .filter((r) => r.answered === 200)
                    .map((r) => r.headers['webhook-id']),
                ).size === EVENTS,
            ),
          'every event answered 200 at every endpoint',
          90_000,
        );
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${b.tail()}`, { cause: error });
      }

      for (const [index, path] of paths.entries()) {
        const events = eventsAt(receiver, path);
        // Nothing lost, nothing invented: exactly the events of the log, once each or repeated whole.
        expect(new Set(events.map(({ event }) => event.id))).toEqual(eventIds);
        for (const { event, requests } of events) {
          expect(requests.map((r) => r.headers['webhook-id'])).toEqual(requests.map(() => event.id));
          expect(new Set(requests.map((r) => r.rawBody)).size).toBe(1);
          for (const request of requests) expect(verdicts(endpoints[index].secret, request)).toEqual(BOTH);
        }
      }
      // Some request was in flight when the worker died, and came again with its webhook-id.
      expect(receiver.on(paths[1]).some((r) => r.clientGone)).toBe(true);
      expect(receiver.on(paths[1]).length).toBeGreaterThan(EVENTS);
    },
    TIMEOUT * 2,
  );
});
