// The pooler section of `npm run bench` (`--only pooler`): the same send load (POST /sender/send,
// SEND_CONNECTIONS at once) and then the same list load (GET /user/messages, five pages in turn)
// against an API process and a worker process on PostgreSQL directly (DATABASE_POOL_MODE=session)
// and through a real PgBouncer in pool_mode=transaction (DATABASE_POOL_MODE=transaction), in one
// run, each on a fresh database: throughput as pooler ÷ direct, and p99s. The same run counts the
// connections each process holds at rest and under each load, and the server's connections
// (bench/connections.ts): the measurements of docs/scaling.md#sizing. Everything at the defaults
// (DATABASE_POOL_SIZE, WORKER_CONCURRENCY, PgBouncer's default_pool_size of 20). Skipped, saying
// why, when Debian's pgbouncer is missing.
import autocannon from 'autocannon';
import { Client } from 'pg';
import { PgBouncer, pgbouncerMissing } from '../test/support/pgbouncer';
import { SEND_CONNECTIONS } from './acceptance.bench';
import { BENCH_APPLICATION, ConnectionCounts, peakConnections } from './connections';
import { SEND_BODY } from './raw-send';
import {
  BENCH_JWT_SECRET,
  benchBearer,
  benchDatabase,
  checkNothingDied,
  MailroomProcess,
  own,
  SinkProcess,
  startMailroomProcess,
  dropDatabases,
} from './support';

/** PgBouncer's own default: the server connections all clients of one database and user share. */
export const POOLER_SERVER_CONNECTIONS = 20;
export const LIST_PAGES = [1, 2, 3, 4, 5].map((page) => `/user/messages?take=20&page=${page}`);
/** How long the processes stand idle, once ready, before their connections at rest are counted. */
const REST_MS = 3000;

type Mode = 'direct' | 'pooler';

interface Load {
  rate: number;
  p50: number;
  p99: number;
  failures: number;
  connections: ConnectionCounts;
}

export interface ModeResult {
  rest: ConnectionCounts;
  send: Load;
  list: Load;
}

export interface PoolerResult {
  rows: string[][];
  /** Per mode; undefined when skipped. */
  modes?: Record<Mode, ModeResult>;
}

/** Resolves once a process's /health/ready answers 200 (a worker's too: ROLE=worker serves it). */
async function readyAt(port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    checkNothingDied();
    const ok = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`the process on ${port} was not ready within a minute`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const failuresOf = (result: autocannon.Result) => result.non2xx + result.errors + result.timeouts;

/**
 * One mode: an API and a worker on `appUrl` (the database directly, or through the pooler), their
 * connections at rest, the send load, the wait until the sink has every stored message, then the
 * list load.
 */
async function measureMode(options: {
  appUrl: string;
  poolMode: 'session' | 'transaction';
  /** The same database on the server directly, for reading and counting. */
  directUrl: string;
  /** Where the processes' connections go: the server's port, or the pooler's. */
  connectPort: number;
  sink: SinkProcess;
  seconds: number;
}): Promise<ModeResult> {
  const { sink, seconds } = options;
  const env = {
    JWT_SECRET: BENCH_JWT_SECRET,
    RATE_LIMIT_PER_MINUTE: '100000000',
    SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
    DATABASE_POOL_MODE: options.poolMode,
  };
  const database = new URL(options.directUrl).pathname.slice(1);
  const monitorUrl = new URL(options.directUrl);
  monitorUrl.pathname = '/postgres';
  const monitor = new Client({ connectionString: monitorUrl.toString(), application_name: BENCH_APPLICATION });
  await monitor.connect();
  const processes: MailroomProcess[] = [];
  try {
    // The API first: it migrates the fresh database before the worker starts.
    const api = await startMailroomProcess(options.appUrl, { role: 'api', env });
    processes.push(api);
    const worker = await startMailroomProcess(options.appUrl, { role: 'worker', env });
    processes.push(worker);
    await readyAt(worker.port);
    const pids = { api: api.pid, worker: worker.pid };
    const count = () => peakConnections(monitor, database, pids, options.connectPort);

    const resting = count();
    await new Promise((resolve) => setTimeout(resolve, REST_MS));
    const rest = await resting.stop();

    const authorization = benchBearer('bench-pooler');
    const sentBefore = await sink.count();
    const sending = count();
    const send = await autocannon({
      url: `http://127.0.0.1:${api.port}/sender/send`,
      method: 'POST',
      connections: SEND_CONNECTIONS,
      duration: seconds,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(SEND_BODY),
    });
    // Every stored message delivered before the lists, so that the list load runs alone (the
    // connections under the send load include the worker's draining).
    const stored = await storedMessages(options.directUrl);
    await sink.waitFor(sentBefore + stored, 10 * 60_000);
    const sendConnections = await sending.stop();

    const listing = count();
    const list = await autocannon({
      url: `http://127.0.0.1:${api.port}`,
      connections: SEND_CONNECTIONS,
      duration: seconds,
      headers: { authorization },
      requests: LIST_PAGES.map((path) => ({ method: 'GET' as const, path })),
    });
    const listConnections = await listing.stop();
    const loadOf = (result: autocannon.Result, connections: ConnectionCounts): Load => ({
      rate: result['2xx'] / seconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      failures: failuresOf(result),
      connections,
    });
    return { rest, send: loadOf(send, sendConnections), list: loadOf(list, listConnections) };
  } finally {
    for (const p of processes.reverse()) await p.stop();
    await monitor.end();
  }
}

/** The messages stored in the database, read on the server directly. */
async function storedMessages(directUrl: string): Promise<number> {
  const client = new Client({ connectionString: directUrl, application_name: BENCH_APPLICATION });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages`);
    return rows[0].n;
  } finally {
    await client.end();
  }
}

const ratio = (pooler: number, direct: number) => `${(pooler / direct).toFixed(2)}×`;

export async function poolerBench({ seconds }: { seconds: number }): Promise<PoolerResult> {
  const missing = pgbouncerMissing();
  if (missing) {
    console.log(`pooler: skipped, ${missing}`);
    return { rows: [['pooler: skipped', missing, '', '', '', '—']] };
  }
  const sink = await SinkProcess.start();
  const database = await benchDatabase();
  // Its maintenance database: the pooler's start-up check leaves an idle server connection to
  // the database it names, which would count as one of the direct processes'.
  const serverUrl = new URL(database.url);
  serverUrl.pathname = '/postgres';
  const bouncer = new PgBouncer(serverUrl.toString(), POOLER_SERVER_CONNECTIONS);
  const stopBouncer = own(() => bouncer.stop());
  let pooledUrl: string | undefined;
  try {
    await bouncer.start();
    pooledUrl = await database.another();
    const modes = {
      direct: await measureMode({
        appUrl: database.url,
        poolMode: 'session',
        directUrl: database.url,
        connectPort: Number(serverUrl.port || 5432),
        sink,
        seconds,
      }),
      pooler: await measureMode({
        appUrl: bouncer.url(new URL(pooledUrl).pathname.slice(1)),
        poolMode: 'transaction',
        directUrl: pooledUrl,
        connectPort: bouncer.port,
        sink,
        seconds,
      }),
    };
    const { direct, pooler } = modes;
    const info = 'shown, not judged';
    const rows = [
      [
        `pooler: sends, POST /sender/send, ${SEND_CONNECTIONS} connections, ${seconds} s (vs direct)`,
        `${pooler.send.rate.toFixed(0)} msg/s`,
        `${direct.send.rate.toFixed(0)} msg/s`,
        ratio(pooler.send.rate, direct.send.rate),
        info,
        '—',
      ],
      [
        'pooler: send latency p50 / p99',
        `${pooler.send.p50} / ${pooler.send.p99} ms`,
        `${direct.send.p50} / ${direct.send.p99} ms`,
        ratio(pooler.send.p99, direct.send.p99),
        info,
        '—',
      ],
      [
        `pooler: lists, GET /user/messages pages 1–5, ${SEND_CONNECTIONS} connections, ${seconds} s (vs direct)`,
        `${pooler.list.rate.toFixed(0)} req/s`,
        `${direct.list.rate.toFixed(0)} req/s`,
        ratio(pooler.list.rate, direct.list.rate),
        info,
        '—',
      ],
      [
        'pooler: list latency p50 / p99',
        `${pooler.list.p50} / ${pooler.list.p99} ms`,
        `${direct.list.p50} / ${direct.list.p99} ms`,
        ratio(pooler.list.p99, direct.list.p99),
        info,
        '—',
      ],
      [
        'pooler: errors (non-2xx, socket errors, timeouts), sends + lists',
        String(pooler.send.failures + pooler.list.failures),
        String(direct.send.failures + direct.list.failures),
        '',
        '0',
        pooler.send.failures + pooler.list.failures === 0 ? 'yes' : '**no**',
      ],
      [
        'pooler: peak server connections under load (API + worker)',
        String(Math.max(pooler.send.connections.server, pooler.list.connections.server)),
        String(Math.max(direct.send.connections.server, direct.list.connections.server)),
        '',
        `≤ default_pool_size (${POOLER_SERVER_CONNECTIONS})`,
        Math.max(pooler.send.connections.server, pooler.list.connections.server) <= POOLER_SERVER_CONNECTIONS
          ? 'yes'
          : '**no**',
      ],
    ];
    return { rows, modes };
  } finally {
    await stopBouncer();
    await sink.stop();
    // On DATABASE_URL's server the run's databases are its own: nothing there to keep.
    if (process.env.DATABASE_URL) await dropDatabases([database.url, ...(pooledUrl ? [pooledUrl] : [])]);
    await database.close();
  }
}

/** The sizing table of docs/scaling.md#sizing, from a pooler run's connection counts. */
export function sizingRows(modes: Record<Mode, ModeResult>): string[][] {
  const row = (mode: Mode, role: 'api' | 'worker') => {
    const m = modes[mode];
    return [
      `${mode === 'direct' ? 'directly' : 'through PgBouncer (transaction)'}: ${role}`,
      String(m.rest.processes[role]),
      String(m.send.connections.processes[role]),
      String(m.list.connections.processes[role]),
    ];
  };
  const server = (mode: Mode) => {
    const m = modes[mode];
    return [
      `${mode === 'direct' ? 'directly' : 'through PgBouncer (transaction)'}: the server's, API + worker`,
      String(m.rest.server),
      String(m.send.connections.server),
      String(m.list.connections.server),
    ];
  };
  return [
    row('direct', 'api'),
    row('direct', 'worker'),
    server('direct'),
    row('pooler', 'api'),
    row('pooler', 'worker'),
    server('pooler'),
  ];
}

export const SIZING_HEADER = ['connections (peak)', 'at rest', 'under sends (+ delivery)', 'under lists'];
