// Behind a real PgBouncer in pool_mode=transaction (docs/configuration.md DATABASE_POOL_MODE,
// docs/scaling.md#behind-pgbouncer): real API and worker processes (`node dist/src/main.js`: run
// `npm run build` first) with DATABASE_POOL_MODE=transaction reach PostgreSQL only through the
// pooler, which gives each transaction whichever server connection is free. Two of them migrate a
// fresh database at once; then 2 APIs and a worker take sends and lists at once, and every
// message reaches a real SMTP sink. Debian's pgbouncer is required; without it the suite is skipped.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Pool } from 'pg';
import { freePort } from '../../src/platform/free-port';
import { MIGRATIONS } from '../../src/platform/database/data-source-options';
import { DELIVERY_QUEUE } from '../../src/platform/queue/delivery-queue';
import { PROJECT_ROOT, ServiceProcess, startServiceProcess, waitUntilAnswering } from '../support/child-processes';
import { sendBody } from '../support/factories';
import { PgBouncer, pgbouncerMissing } from '../support/pgbouncer';
import { ProgressWatch } from '../support/process-progress';
import { noticeSkip } from '../support/skip-notice';
import { SmtpSink } from '../support/smtp-sink';
import { createIsolatedDatabase, dropDatabase } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitWhileChanging } from '../support/wait-for';

const TIMEOUT = 10 * 60_000;
const MAIN = join(PROJECT_ROOT, 'dist/src/main.js');
/** Server connections the pooler opens for the database: all the processes share them. */
const SERVER_CONNECTIONS = 8;
const SINGLES = 60;
const BATCHES = 4;
const BATCH = 10;
const SENDS = SINGLES + BATCHES * BATCH;
/** The application_name of the test's own connections, past the pooler. */
const CHECKER = 'pgbouncer-transaction-check';
/** Requests in flight at once from the test's client, spread over both APIs. */
const CLIENT_LANES = 8;

const missing = pgbouncerMissing();
if (missing) noticeSkip(`pgbouncer-transaction: skipped, ${missing}`);
const describeWithPgBouncer = missing ? describe.skip : describe;

const sink = new SmtpSink();
const bouncer = new PgBouncer(process.env.TEST_DATABASE_URL!, SERVER_CONNECTIONS);
const apis: { service: ServiceProcess; base: string }[] = [];
let worker: ServiceProcess | undefined;
let databaseUrl: string;
let databaseName: string;
/** Straight to the server, past the pooler: what the test reads to check. */
let direct: Pool;
let shared: Record<string, string>;

beforeAll(async () => {
  if (missing) return;
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run npm run build first`);
  const smtpUrl = sink.url(await sink.start());
  await bouncer.start();
  databaseUrl = await createIsolatedDatabase(process.env.TEST_DATABASE_URL!);
  databaseName = new URL(databaseUrl).pathname.slice(1);
  direct = new Pool({ connectionString: databaseUrl, max: 2, application_name: CHECKER });
  shared = {
    DATABASE_URL: bouncer.url(databaseName),
    DATABASE_POOL_MODE: 'transaction',
    DATABASE_POOL_SIZE: '10',
    RATE_LIMIT_PER_MINUTE: '100000',
    WORKER_CONCURRENCY: '4',
    SMTP_URL: smtpUrl,
    WEBHOOK_SIGNING_KEY: 'pgbouncer-transaction-webhook-signing-key-0123',
    LOG_LEVEL: 'warn',
  };
}, TIMEOUT);

afterAll(async () => {
  try {
    for (const service of [...apis.map((a) => a.service), ...(worker ? [worker] : [])]) await service.stop();
    await direct?.end();
    await bouncer.stop();
    await sink.stop();
  } finally {
    if (databaseUrl) await dropDatabase(databaseUrl);
  }
}, TIMEOUT);

async function start(role: 'api' | 'worker'): Promise<{ service: ServiceProcess; base: string }> {
  const port = await freePort();
  const service = startServiceProcess(
    { ...shared, ROLE: role, HOST: '127.0.0.1', PORT: String(port) },
    { command: [process.execPath, MAIN] },
  );
  return { service, base: `http://127.0.0.1:${port}` };
}

async function call(api: number, method: string, path: string, userId: string, body?: unknown) {
  const response = await fetch(`${apis[api].base}${path}`, {
    method,
    headers: { ...bearer(userId), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describeWithPgBouncer('API and worker processes behind PgBouncer in transaction mode', () => {
  it(
    'two processes migrating a fresh database through the pooler at once take turns and leave no lock',
    async () => {
      apis.push(await start('api'), await start('api'));
      const watch = new ProgressWatch(apis.map((a) => a.service));
      await Promise.all(apis.map(({ service, base }) => waitUntilAnswering(`${base}/health/ready`, service, watch)));

      const { rows: ran } = await direct.query<{ name: string }>('SELECT name FROM migrations ORDER BY id');
      expect(ran.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
      const { rows: queueSchema } = await direct.query(`SELECT version FROM pgboss.version`);
      expect(queueSchema).toHaveLength(1);
      // Neither process holds (or left on a pooled server connection) an advisory lock.
      const { rows: locks } = await direct.query(
        `SELECT l.pid, l.objid FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND d.datname = $1`,
        [databaseName],
      );
      expect(locks).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'answer concurrent sends, batches and lists with no error, deliver every message once and leave no job behind',
    async () => {
      const started = await start('worker');
      worker = started.service;
      await waitUntilAnswering(`${started.base}/health/ready`, worker);

      const userId = newUserId('pgbouncer');
      const body = (i: number) => sendBody({ subject: `Pooled ${i}`, to: [`r${i}@example.com`] });
      const requests = [
        ...Array.from({ length: SINGLES }, (_, i) => [body(i)]),
        ...Array.from({ length: BATCHES }, (_, b) =>
          Array.from({ length: BATCH }, (_, j) => body(SINGLES + b * BATCH + j)),
        ),
      ];
      const statuses: number[] = [];
      const failures: string[] = [];
      const ids: string[] = [];
      let peakServerConnections = 0;
      let next = 0;
      const lane = async (laneNo: number) => {
        while (next < requests.length) {
          const i = next++;
          const api = i % 2;
          const messages = requests[i];
          const single = messages.length === 1;
          const sent = await call(
            api,
            'POST',
            single ? '/sender/send' : '/sender/send/batch',
            userId,
            single ? messages[0] : { messages },
          );
          statuses.push(sent.status);
          if (sent.status !== 201) failures.push(`send ${i}: ${sent.status} ${JSON.stringify(sent.body)}`);
          else ids.push(...(single ? [sent.body.id] : sent.body.messages.map((m: { id: string }) => m.id)));
          // A list on the other API between sends, while the worker delivers.
          const listed = await call(1 - api, 'GET', `/user/messages?take=20&page=${1 + (laneNo % 3)}`, userId);
          statuses.push(listed.status);
          if (listed.status !== 200) failures.push(`list: ${listed.status} ${JSON.stringify(listed.body)}`);
          // Client backends only: an autovacuum worker busy with this database has its name too.
          const { rows } = await direct.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = $1 AND backend_type = 'client backend' AND application_name <> $2`,
            [databaseName, CHECKER],
          );
          peakServerConnections = Math.max(peakServerConnections, rows[0].n);
        }
      };
      await Promise.all(Array.from({ length: CLIENT_LANES }, (_, n) => lane(n)));

      expect(failures).toEqual([]);
      expect(statuses).toHaveLength(2 * requests.length);
      expect(new Set(ids).size).toBe(SENDS);

      await waitWhileChanging(
        async () => (await call(0, 'GET', '/user/messages?statuses=sent&take=1', userId)).body.total as number,
        (sent) => sent === SENDS,
        `${SENDS} sent`,
      ).catch((error: Error) => {
        throw new Error(`${error.message}\n${worker!.tail()}`);
      });
      await waitWhileChanging(
        async () =>
          (
            await direct.query(`SELECT id, state FROM pgboss.job WHERE name = $1 AND state = ANY($2)`, [
              DELIVERY_QUEUE,
              ['created', 'retry', 'active'],
            ])
          ).rows,
        (rows) => rows.length === 0,
        'no delivery job left to run',
      );
      expect(Object.fromEntries(ids.map((id) => [id, sink.acceptedFor(`<${id}@`).length]))).toEqual(
        Object.fromEntries(ids.map((id) => [id, 1])),
      );
      // All the processes' clients shared the pooler's server connections.
      expect(peakServerConnections).toBeLessThanOrEqual(SERVER_CONNECTIONS);
      process.stdout.write(
        `pgbouncer-transaction: ${SENDS} messages through 2 APIs and 1 worker, peak ${peakServerConnections} server connections on the database (pooler's pool: ${SERVER_CONNECTIONS})\n`,
      );
    },
    TIMEOUT,
  );
});
