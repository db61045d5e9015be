// npm run bench [-- --runs 25 --seconds 20 --messages 5000 --delivery-seconds 60]
// The performance issue's benchmarks, as ratios measured in one run:
// - the list (list.bench.ts): GET /user/messages on the seeded user of a million messages
//   (npm run bench:seed, run first when its database is missing) against the naive SQL pair,
//   by API key against JWT, and GET /user/stats over 366 days against the list's first page;
// - acceptance (acceptance.bench.ts): POST /sender/send and POST /sender/send/batch against the
//   same rows written straight through pg, and the resident memory under sends and uploads;
// - delivery (delivery.bench.ts): queued → worker → sink → sent, and end to end (an API process
//   under --delivery-seconds of single or batch sends, a separate worker process), against raw
//   nodemailer to the same sink, with each process's CPU per message;
// - the console (console.bench.ts): its first load's gzip size, and its Messages page on the
//   seeded million messages in Chromium;
// - events (events.bench.ts): sends and delivery with 0 and with 1 subscribed webhook endpoint, and the
//   fan-out rate of account events to 3 endpoints (docs/delivery-and-deliverability.md#webhooks);
// - direct (direct.bench.ts): SMTP_URL=direct to three loopback sites against raw nodemailer pools
//   with the same per-site connection limits;
// - the pooler (pooler.bench.ts): sends and lists through PgBouncer in transaction mode against
//   direct, in one run, with the connections each process holds (the sizing table of
//   docs/scaling.md); skipped without /usr/sbin/pgbouncer.
// `--only list-modes` (list-modes.bench.ts, not in the full run) times the list in session mode,
// transaction mode and through PgBouncer on the seeded database; `--only pooler-many [--processes 6]`
// (pooler-many.bench.ts, not in the full run) loads that many API processes behind one PgBouncer.
// Writes the tables to bench/results.md (`--only list`, `stats`, `send`, `batch`, `uploads`, `delivery`, `events`, `direct`,
// `pooler`, `pooler-many` or `list-modes` runs one
// section and only prints it; `--only console` rewrites only the console's section there). Uses DATABASE_URL's server when set, else embedded ones.
import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BATCH_CLIENTS, batchBench, SEND_CONNECTIONS, sendBench, uploadBench } from './acceptance.bench';
import { BATCH_SIZE } from './copy-ceiling';
import { consoleBench } from './console.bench';
import { CPU_HEADER, deliveryBench } from './delivery.bench';
import { eventsBench } from './events.bench';
import { directBench } from './direct.bench';
import { benchListDatabase } from './list-database';
import { listBench, statsBench } from './list.bench';
import { listModesBench } from './list-modes.bench';
import { poolerManyBench } from './pooler-many.bench';
import { poolerBench, SIZING_HEADER, sizingRows } from './pooler.bench';
import { markdownTable, RESULT_HEADER, ROOT, runBench } from './support';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '20' },
    messages: { type: 'string', default: '5000' },
    'delivery-seconds': { type: 'string', default: '60' },
    only: { type: 'string' },
    processes: { type: 'string', default: '6' },
  },
});
const RUNS = Number(values.runs);
const LOAD = { seconds: Number(values.seconds) };
const DELIVERY = { messages: Number(values.messages), seconds: Number(values['delivery-seconds']) };
// Each of the events section's halves: enough to time, few enough to run beside the rest.
const EVENT_MESSAGES = Math.min(Number(values.messages), 2000);
// Three sites at 20 ms a message and 5 connections each take about 750 a second at best.
const DIRECT_MESSAGES = Math.min(Number(values.messages), 3000);

const tableOf = (rows: string[][]) => markdownTable(RESULT_HEADER, rows);
const CPU_TITLE =
  "CPU ms per message by process (raw, accept and deliver rows; Linux CPU time, 10 ms ticks), and each process's share of a core during the end-to-end loads:";

const RESULTS = join(ROOT, 'bench/results.md');
const CONSOLE_TITLE = '## Console (docs/architecture.md#the-console)';
const SIZING_TITLE =
  'Database connections each process held (its own TCP connections to the server, or to the pooler) and the server held for the database, at the default DATABASE_POOL_SIZE and PgBouncer default_pool_size (docs/scaling.md#sizing):';

/** The console's section of bench/results.md, on the seeded list database. */
async function consoleSection(): Promise<string> {
  const database = await benchListDatabase();
  try {
    const { rows } = await consoleBench(database.url);
    return `${CONSOLE_TITLE}\n\nWritten on ${new Date().toISOString().slice(0, 10)}: the gzip sizes of the files console/dist/index.html loads; Chromium's own timeline of each navigation to /console/messages (\`performance.now()\` at the first frame painted with a row), each in a fresh context, against an API process on the seeded database of \`npm run bench:seed\`.\n\n${tableOf(rows)}\n`;
  } finally {
    await database.close();
  }
}

/** Replaces the console's section of bench/results.md (or adds it), leaving the rest as it was. */
function writeConsoleSection(section: string): void {
  const results = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmark results\n';
  const at = results.indexOf(CONSOLE_TITLE);
  writeFileSync(RESULTS, `${(at < 0 ? results : results.slice(0, at)).trimEnd()}\n\n${section}`);
}

async function main(): Promise<void> {
  if (values.only === 'console') {
    const section = await consoleSection();
    writeConsoleSection(section);
    console.log(`\n${section}\nwritten to bench/results.md (its console section)`);
    return;
  }
  if (values.only) {
    const sections: Record<
      string,
      () => Promise<{ rows: string[][]; cpu?: string[][]; header?: string[]; after?: string }>
    > = {
      list: () => listBench({ runs: RUNS }),
      stats: () => statsBench({ runs: RUNS }),
      send: () => sendBench(LOAD),
      batch: () => batchBench(LOAD),
      uploads: uploadBench,
      delivery: () => deliveryBench(DELIVERY),
      events: () => eventsBench({ messages: EVENT_MESSAGES }),
      direct: () => directBench({ messages: DIRECT_MESSAGES }),
      pooler: async () => {
        const { rows, modes } = await poolerBench(LOAD);
        return { rows, after: modes && `${SIZING_TITLE}\n\n${markdownTable(SIZING_HEADER, sizingRows(modes))}\n` };
      },
      'list-modes': () => listModesBench({ runs: RUNS }),
      'pooler-many': () => poolerManyBench({ ...LOAD, count: Number(values.processes) }),
    };
    if (!sections[values.only]) throw new Error(`--only takes ${[...Object.keys(sections), 'console'].join(', ')}`);
    const { rows, cpu, header, after } = await sections[values.only]();
    console.log(
      `\n${markdownTable(header ?? RESULT_HEADER, rows)}\n${cpu ? `\n${CPU_TITLE}\n\n${markdownTable(CPU_HEADER, cpu)}\n` : ''}${after ? `\n${after}` : ''}\n(one section: bench/results.md left as it was)`,
    );
    return;
  }
  const list = await listBench({ runs: RUNS });
  const send = await sendBench(LOAD);
  const batch = await batchBench(LOAD);
  const uploads = await uploadBench();
  const delivery = await deliveryBench(DELIVERY);
  const events = await eventsBench({ messages: EVENT_MESSAGES });
  const direct = await directBench({ messages: DIRECT_MESSAGES });
  const pooler = await poolerBench(LOAD);
  const memory = [
    [
      'RSS after the list benchmark',
      `${list.rssAfter.toFixed(0)} MiB`,
      '',
      '',
      '< 300 MiB',
      list.rssAfter < 300 ? 'yes' : '**no**',
    ],
    ...uploads.rows,
  ];
  const table = tableOf([
    ...list.rows,
    ...send.rows,
    ...batch.rows,
    ...delivery.rows,
    ...direct.rows,
    ...events.rows,
    ...pooler.rows,
    ...memory,
  ]);
  const cpu = markdownTable(CPU_HEADER, [...delivery.cpu, ...direct.cpu]);
  const sizing = pooler.modes ? `\n\n${SIZING_TITLE}\n\n${markdownTable(SIZING_HEADER, sizingRows(pooler.modes))}` : '';
  const report =
    `# Benchmark results\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}, ` +
    `${RUNS} timed runs per list case, medians). List baseline: the naive SQL pair through pg; send baseline: the same inserts ` +
    `through pg with ${SEND_CONNECTIONS} connections; batch baseline: the same rows loaded with COPY through pg from ${BATCH_CLIENTS} clients, ` +
    `one transaction per ${BATCH_SIZE} messages; delivery baseline: raw nodemailer sending the same messages to the same sink ` +
    `(end to end: ${DELIVERY.seconds} s of load); pooler baseline: the same loads on PostgreSQL directly. Query plans: bench/out/plans.\n\n${table}\n\n${CPU_TITLE}\n\n${cpu}${sizing}\n`;
  const consoleResults = await consoleSection();
  writeFileSync(RESULTS, `${report}\n${consoleResults}`);
  console.log(`\n${table}\n\n${cpu}${sizing}\n\n${consoleResults}\nwritten to bench/results.md`);
}

runBench(main);
