// The world of test/e2e/many-processes.e2e-spec.ts (docs/scaling.md): two ROLE=api and two ROLE=worker
// processes, each a real `node src/main.ts`, on one PostgreSQL database of their own, each worker
// relaying through a real SMTP sink of its own and posting webhooks to a real HTTP receiver; and what
// its tests ask of them, with Node's fetch and the pg client.
import { Pool } from 'pg';
import { freePort } from '../../src/platform/free-port';
import { ServiceProcess, startServiceProcess, waitUntilAnswering } from './child-processes';
import { ProgressWatch } from './process-progress';
import { SinkReply, SmtpSink } from './smtp-sink';
import { ProcessResources } from './process-resources';
import { createIsolatedDatabase, dropDatabase } from './test-app';
import { bearer } from './tokens';
import { waitWhileChanging } from './wait-for';
import { WebhookReceiver } from './webhook-receiver';

/**
 * Only a backstop: the waits below give up once nothing moves (no output or CPU time while the
 * processes start, no message sent or job finished while they work), not after a fixed time,
 * which a machine at a load average of 10 missed (a start of 20 s quiet took over 90 s there).
 */
export const TIMEOUT = 15 * 60_000;
/**
 * Short, so that a killed worker's jobs come back soon, but longer than any delivery here takes from
 * its claim to its record: a job whose lease runs out on a live worker is claimed again by the
 * other (seen with 4 s: a cold worker on this loaded 2-core machine held a claimed batch for longer,
 * and 2 to 8 messages went out twice with no worker killed; seen with 10 s at a load average of 16:
 * one message claimed twice, `queued,sending,sending,sent`).
 */
export const LEASE_SECONDS = 30;
/** How long the takeover's waits see no change while the dead worker's leases run out. */
export const TAKEOVER_STALL_MS = LEASE_SECONDS * 1000 + 30_000;
export const CONCURRENCY = 4;
/** Requests kept in flight by the test's client at once, spread over both APIs. */
const CLIENT_LANES = 8;

export const sinks = [new SmtpSink(), new SmtpSink()];
export const receiver = new WebhookReceiver();
export const apis: { service: ServiceProcess; base: string }[] = [];
/** The worker processes; a test that kills one takes it out. */
export const workers: ServiceProcess[] = [];
let databaseUrl: string;
let database: Pool;
/** Replies sink 0 holds open in the crash test, released there or in afterAll. */
export const held: { messageId: string; release: (reply: SinkReply) => void }[] = [];
/** Each process's connections and CPU, for the report. */
let resources: ProcessResources;
let sampler: NodeJS.Timeout | undefined;

/** Each process's CPU so far, for the report (ProcessResources.cpuBetween). */
export const cpuSnapshot = () => resources.cpuSnapshot();

/** Stops sampling connections: a killed process's peaks are no one's. */
export const stopSamplingConnections = () => clearInterval(sampler);

/**
 * Starts the sinks, the receiver and the four processes on a database of their own before the
 * calling file's tests, and stops them after.
 */
export function useManyProcesses(): void {
  beforeAll(async () => {
    const sinkUrls = await Promise.all(sinks.map(async (sink) => sink.url(await sink.start())));
    await receiver.start();
    databaseUrl = await createIsolatedDatabase(process.env.TEST_DATABASE_URL!);
    database = new Pool({ connectionString: databaseUrl, max: 2 });
    resources = new ProcessResources(database);
    // Every process sets the queue's lease as it starts, so all of them are given the same one.
    const shared = {
      DATABASE_URL: databaseUrl,
      DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
      WORKER_CONCURRENCY: String(CONCURRENCY),
      RATE_LIMIT_PER_MINUTE: '100000',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      // The receiver runs in this test's process: on a machine at a load average of 20 its 200 came
      // after the default 10 s for 16 of 600 events, which were then posted again. Each event once is
      // what is checked here, not how soon a starved receiver answers.
      WEBHOOK_TIMEOUT_MS: '60000',
      // Processes that do not share a DATA_DIR share the key that users' webhook secrets come from.
      WEBHOOK_SIGNING_KEY: 'many-processes-webhook-signing-key-0123456789',
      LOG_LEVEL: 'warn',
    };
    // All four start together: their start-up migrations take turns on an advisory lock, so one
    // waiting its turn progresses through the others, and the four are watched as one.
    const starting: ServiceProcess[] = [];
    const ready: { url: string; service: ServiceProcess }[] = [];
    for (const i of [0, 1]) {
      const [apiPort, workerPort] = [await freePort(), await freePort()];
      const api = startServiceProcess({ ...shared, ROLE: 'api', HOST: '127.0.0.1', PORT: String(apiPort) });
      resources.add(api.child.pid!, `api-${i}`);
      apis.push({ service: api, base: `http://127.0.0.1:${apiPort}` });
      const worker = startServiceProcess({
        ...shared,
        ROLE: 'worker',
        HOST: '127.0.0.1',
        PORT: String(workerPort),
        SMTP_URL: sinkUrls[i],
      });
      resources.add(worker.child.pid!, `worker-${i}`);
      workers.push(worker);
      starting.push(api, worker);
      ready.push({ url: `http://127.0.0.1:${apiPort}/health/ready`, service: api });
      ready.push({ url: `http://127.0.0.1:${workerPort}/health/ready`, service: worker });
    }
    const watch = new ProgressWatch(starting);
    const startedAt = Date.now();
    await Promise.all(ready.map(({ url, service }) => waitUntilAnswering(url, service, watch)));
    process.stdout.write(`many-processes: 2 APIs and 2 workers ready ${Date.now() - startedAt} ms after their start\n`);
    sampler = setInterval(() => void resources.sampleConnections().catch(() => undefined), 100);
  }, TIMEOUT);

  afterAll(async () => {
    clearInterval(sampler);
    try {
      for (const { release } of held.splice(0)) release({ code: 451, message: '4.4.2 Test over' });
      for (const service of [...apis.map((a) => a.service), ...workers]) await service.stop();
      await database?.end();
      await receiver.stop();
      for (const sink of sinks) await sink.stop();
    } finally {
      if (databaseUrl) await dropDatabase(databaseUrl);
      const peaks = resources?.peakConnections();
      if (peaks) process.stdout.write(`many-processes: peak database connections per process: ${peaks}\n`);
    }
  }, TIMEOUT);
}

export async function call(
  api: number,
  method: string,
  path: string,
  userId: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${apis[api].base}${path}`, {
    method,
    headers: { ...bearer(userId), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** What one request (a single send or a batch) to one API accepted: message ids. */
export async function accept(api: number, userId: string, messages: Record<string, unknown>[]): Promise<string[]> {
  const single = messages.length === 1;
  const { status, body } = await call(
    api,
    'POST',
    single ? '/sender/send' : '/sender/send/batch',
    userId,
    single ? messages[0] : { messages },
  );
  if (status !== 201) throw new Error(`API ${api} answered ${status}: ${JSON.stringify(body)}`);
  return single ? [body.id] : body.messages.map((m: { id: string }) => m.id);
}

/** Runs `requests` with CLIENT_LANES of them in flight at once; the ids each accepted, in order. */
export async function acceptAll(
  requests: { api: number; messages: Record<string, unknown>[] }[],
  userId: string,
): Promise<string[]> {
  const accepted: string[][] = [];
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const i = next++;
      accepted[i] = await accept(requests[i].api, userId, requests[i].messages);
    }
  };
  await Promise.all(Array.from({ length: CLIENT_LANES }, lane));
  return accepted.flat();
}

/** Polls the list through `api` until `total` messages are sent; fails once the count stops moving. */
export async function waitUntilSent(api: number, userId: string, total: number, stallMs?: number): Promise<void> {
  await waitWhileChanging(
    async () => (await call(api, 'GET', '/user/messages?statuses=sent&take=1', userId)).body.total as number,
    (sent) => sent === total,
    `${total} sent`,
    stallMs,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${workers.map((w) => w.tail()).join('\n---\n')}`);
  });
}

/**
 * Polls pg-boss until `queue` holds no job in `states`; by default none that may still run, so that
 * nothing more can be sent or posted.
 */
export async function waitForJobs(
  queue: string,
  states = ['created', 'retry', 'active'],
  stallMs = 30_000,
): Promise<void> {
  await waitWhileChanging(
    async () =>
      (
        await database.query(`SELECT id, state FROM pgboss.job WHERE name = $1 AND state = ANY($2) ORDER BY id`, [
          queue,
          states,
        ])
      ).rows,
    (rows) => rows.length === 0,
    `queue ${queue} to hold no job ${states.join('/')}`,
    stallMs,
  );
}

/** Copies of message `id` the sinks accepted, by sink (that is, by the worker that relayed them). */
export const copiesBySink = (id: string) => sinks.map((sink) => sink.acceptedFor(`<${id}@`).length);
export const copies = (id: string) => copiesBySink(id).reduce((a, b) => a + b, 0);
export const statuses = (message: { statusHistory: { status: string }[] }) =>
  message.statusHistory.map((e) => e.status);

/** One sample of a Prometheus text exposition, or undefined. */
export async function metric(base: string, name: string): Promise<number | undefined> {
  const line = (await (await fetch(`${base}/metrics`)).text()).split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}
