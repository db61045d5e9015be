// `npm run bench -- --only pooler-many [--processes 6]` (not in the full run): many API processes
// behind one PgBouncer in transaction mode, more than PostgreSQL could give their pools directly.
import autocannon from 'autocannon';
import { Client } from 'pg';
import { PgBouncer, pgbouncerMissing } from '../test/support/pgbouncer';
import { SEND_CONNECTIONS } from './acceptance.bench';
import { BENCH_APPLICATION, peakConnections } from './connections';
import { failuresOf, LIST_PAGES, POOLER_SERVER_CONNECTIONS, PoolerResult } from './pooler.bench';
import { SEND_BODY } from './raw-send';
import {
  BENCH_JWT_SECRET,
  benchBearer,
  benchDatabase,
  dropDatabases,
  MailroomProcess,
  own,
  startMailroomProcess,
} from './support';

/**
 * `--only pooler-many`: `count` API processes behind one PgBouncer (transaction mode, the default
 * default_pool_size), more than PostgreSQL's 97 ordinary connections could take at their default
 * pools directly, under sends and lists at once on each (SEND_CONNECTIONS a process, a quarter of
 * them sending): the processes' connections to the pooler, the server's, and the errors.
 */
export async function poolerManyBench({ seconds, count }: { seconds: number; count: number }): Promise<PoolerResult> {
  const missing = pgbouncerMissing();
  if (missing) {
    console.log(`pooler-many: skipped, ${missing}`);
    return { rows: [['pooler-many: skipped', missing, '', '', '', '—']] };
  }
  const database = await benchDatabase();
  const serverUrl = new URL(database.url);
  serverUrl.pathname = '/postgres';
  const bouncer = new PgBouncer(serverUrl.toString(), POOLER_SERVER_CONNECTIONS);
  const stopBouncer = own(() => bouncer.stop());
  const monitor = new Client({ connectionString: serverUrl.toString(), application_name: BENCH_APPLICATION });
  const apis: MailroomProcess[] = [];
  try {
    await bouncer.start();
    await monitor.connect();
    const name = new URL(database.url).pathname.slice(1);
    const env = { JWT_SECRET: BENCH_JWT_SECRET, RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_POOL_MODE: 'transaction' };
    // One migrates first; the others start together on the migrated database.
    apis.push(await startMailroomProcess(bouncer.url(name), { role: 'api', env }));
    apis.push(
      ...(await Promise.all(
        Array.from({ length: count - 1 }, () => startMailroomProcess(bouncer.url(name), { role: 'api', env })),
      )),
    );
    const pids = Object.fromEntries(apis.map((api, i) => [`api ${i + 1}`, api.pid]));
    const sampling = peakConnections(monitor, name, pids, bouncer.port);
    const sending = Math.max(1, SEND_CONNECTIONS / 4);
    const loads = await Promise.all(
      apis.flatMap((api, i) => {
        const authorization = benchBearer(`bench-pooler-many-${i}`);
        return [
          autocannon({
            url: `http://127.0.0.1:${api.port}/sender/send`,
            method: 'POST',
            connections: sending,
            duration: seconds,
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify(SEND_BODY),
          }),
          autocannon({
            url: `http://127.0.0.1:${api.port}`,
            connections: SEND_CONNECTIONS - sending,
            duration: seconds,
            headers: { authorization },
            requests: LIST_PAGES.map((path) => ({ method: 'GET' as const, path })),
          }),
        ];
      }),
    );
    const peak = await sampling.stop();
    const clients = Object.values(peak.processes);
    const sum = (of: (load: autocannon.Result) => number) => loads.reduce((total, load) => total + of(load), 0);
    const failures = sum(failuresOf);
    for (const load of loads.filter((l) => l.non2xx > 0))
      console.log(`pooler-many: ${load.url} answered ${JSON.stringify(load.statusCodeStats)}`);
    const answered = sum((load) => load['2xx']);
    return {
      rows: [
        [
          `pooler-many: ${count} API processes behind PgBouncer, sends and lists, ${SEND_CONNECTIONS} connections each, ${seconds} s`,
          `${(answered / seconds).toFixed(0)} req/s answered`,
          '',
          '',
          'shown, not judged',
          '—',
        ],
        [
          "pooler-many: the processes' connections to the pooler, peak per process (sum)",
          `${Math.min(...clients)}–${Math.max(...clients)} (${clients.reduce((a, b) => a + b, 0)})`,
          '',
          '',
          `≤ DATABASE_POOL_SIZE each`,
          '—',
        ],
        [
          "pooler-many: the server's connections to the database, peak",
          String(peak.server),
          '',
          '',
          `≤ default_pool_size (${POOLER_SERVER_CONNECTIONS})`,
          peak.server <= POOLER_SERVER_CONNECTIONS ? 'yes' : '**no**',
        ],
        [
          'pooler-many: errors (non-2xx, socket errors, timeouts)',
          `${failures} (${sum((l) => l.non2xx)}, ${sum((l) => l.errors)}, ${sum((l) => l.timeouts)})`,
          '',
          '',
          '0',
          failures === 0 ? 'yes' : '**no**',
        ],
      ],
    };
  } finally {
    for (const api of apis.reverse()) await api.stop();
    await monitor.end();
    await stopBouncer();
    // On DATABASE_URL's server the run's database is its own: nothing there to keep.
    if (process.env.DATABASE_URL) await dropDatabases([database.url]);
    await database.close();
  }
}
