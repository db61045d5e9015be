// npm run bench:delivery [-- --messages 5000] [--seconds 60] [--signed]
// Delivery against the raw rate of nodemailer sending the same messages straight to the same
// sink from one process, all in one run:
// - delivery: messages queued beforehand, drained by a ROLE=worker process (sink accepts, status sent);
// - end to end, sustained for --seconds: a ROLE=api process accepting POST /sender/send (or
//   /sender/send/batch) under load while a separate ROLE=worker process delivers; the rate is the
//   messages that reached `sent` during the load;
// - where a message's CPU goes: each process's CPU time (Linux /proc) per message, for
//   accepting (API, PostgreSQL; the single sends after as many unmeasured), delivering (worker,
//   PostgreSQL, sink) and the raw send.
// Uses DATABASE_URL's server when set (its CPU is then not measured), else an embedded one.
// --signed: the sender's domain is a verified sending domain, so every message is DKIM-signed
// (and the raw rate signs too). BENCH_CPU_PROF=<folder> (bench/support.ts): the Mailroom
// processes write V8 CPU profiles there. `npm run bench` runs this as its delivery section.
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import { toMimeMessage } from '../src/messages/mime/mime';
import { Client } from 'pg';
import { AppConfig } from '../src/platform/config/app-config';
import { DkimKeyCipher } from '../src/deliverability/domains/dkim-key-cipher';
import { MAX_BATCH_MESSAGES } from '../src/sender/dto/send-batch.dto';
import { coreShare, cpuNow, cpuRow, msEach } from './cpu';
import {
  BENCH_DATA_ENCRYPTION_KEY,
  BENCH_JWT_SECRET,
  benchBearer,
  BenchDatabase,
  benchDatabase,
  checkNothingDied,
  markdownTable,
  median,
  RESULT_HEADER,
  runBench,
  runConcurrently,
  SinkProcess,
  startMailroomProcess,
} from './support';

export interface DeliveryOptions {
  /** Messages for the raw rate (each of three tries) and for each third of the delivery queue (warm-up, single sends, batches). */
  messages: number;
  /** How long each end-to-end load lasts. */
  seconds: number;
  signed?: boolean;
}

export interface DeliveryResult {
  /** Rows of bench.ts's table: measure, Mailroom, baseline, ratio, target, met. */
  rows: string[][];
  /** Where the CPU goes: phase, then ms per message (or share of a core) by process. */
  cpu: string[][];
  passed: boolean;
}

export const CPU_HEADER = ['phase', 'API', 'PostgreSQL', 'worker', 'sink', 'bench client'];

const CONCURRENCY = 8; // WORKER_CONCURRENCY's default: SMTP connections on both sides
const HTTP_CONNECTIONS = 32;
const BATCH_CLIENTS = 4;
const AUTHORIZATION = benchBearer('bench', 24 * 3600);

const message = (i: number) => ({
  subject: `Benchmark message ${i}`,
  html: `<h1>Hello</h1><p>This is message <b>${i}</b> of the delivery benchmark.</p>`,
  to: [`user${i}@example.com`],
  sender: 'bench@example.com',
});

type Signing = { domainName: string; keySelector: string; privateKey: KeyObject } | undefined;

export async function deliveryBench(options: DeliveryOptions): Promise<DeliveryResult> {
  const signing: Signing = options.signed
    ? {
        domainName: 'example.com',
        keySelector: 'bench',
        privateKey: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
      }
    : undefined;
  const startMailroom = (databaseUrl: string, sink: SinkProcess, role: 'api' | 'worker') =>
    startMailroomProcess(databaseUrl, {
      role,
      // The bench's own limit: far above what it sends in a minute (the product's default is 600).
      env: {
        JWT_SECRET: BENCH_JWT_SECRET,
        RATE_LIMIT_PER_MINUTE: '100000000',
        SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
        WORKER_CONCURRENCY: String(CONCURRENCY),
      },
    });
  const n = options.messages;
  const cpu: string[][] = [];

  const sink = await SinkProcess.start();
  const database = await benchDatabase();
  try {
    // The raw rate moves by ±10% from one try to the next here: the median of three.
    const rawBefore = cpuNow({ sink: sink.pid });
    const raw = median([
      await rawNodemailer(sink, n, signing),
      await rawNodemailer(sink, n, signing),
      await rawNodemailer(sink, n, signing),
    ]);
    cpu.push(cpuRow('raw: nodemailer → sink', rawBefore, cpuNow({ sink: sink.pid }), 3 * n, msEach));

    // Accepting alone, with no worker running: n single sends, then n in batches.
    const api = await startMailroom(database.url, sink, 'api');
    if (signing) await addVerifiedDomain(database.url, signing);
    const accepting = { api: api.pid, sink: sink.pid, postgres: database.serverPid };
    // n sends unmeasured first (WARM_UP_SECONDS in acceptance.bench.ts says why); they are
    // drained with the rest.
    await sendSingly(api.port, n);
    let before = cpuNow(accepting);
    await sendSingly(api.port, n);
    const afterSingles = cpuNow(accepting);
    cpu.push(cpuRow(`accept: POST /sender/send, ${HTTP_CONNECTIONS} connections`, before, afterSingles, n, msEach));
    const apiPerSend = (afterSingles.api! - before.api!) / n;
    const postgresPerSend = before.postgres === undefined ? undefined : (afterSingles.postgres! - before.postgres) / n;
    before = cpuNow(accepting);
    await sendInBatches(api.port, n);
    cpu.push(
      cpuRow(`accept: POST /sender/send/batch, ${MAX_BATCH_MESSAGES} a request`, before, cpuNow(accepting), n, msEach),
    );
    await api.stop();
    await analyze(database.url);

    const drained = await drain(database, sink, 3 * n, () => startMailroom(database.url, sink, 'worker'));
    cpu.push(drained.cpu);

    const single = await endToEnd(
      database,
      sink,
      options.seconds,
      'single',
      () => startMailroom(database.url, sink, 'api'),
      () => startMailroom(database.url, sink, 'worker'),
      signing,
    );
    cpu.push(single.cpu);
    // A database of its own: the single sends' backlog would otherwise be delivered during the batch load.
    const batchDatabase = { ...database, url: await database.another() };
    const batch = await endToEnd(
      batchDatabase,
      sink,
      options.seconds,
      'batch',
      () => startMailroom(batchDatabase.url, sink, 'api'),
      () => startMailroom(batchDatabase.url, sink, 'worker'),
      signing,
    );
    cpu.push(batch.cpu);

    const judged = (rate: number, target: number) => ({
      ratio: `${(rate / raw).toFixed(2)}×`,
      met: rate / raw >= target,
    });
    const d = judged(drained.rate, 0.5);
    const s = judged(single.rate, 0.35);
    const b = judged(batch.rate, 0.5);
    const yes = (met: boolean) => (met ? 'yes' : '**no**');
    const msgs = (rate: number) => `${rate.toFixed(0)} msg/s`;
    const rawCell = `${msgs(raw)} raw`;
    // The API's own cost per send against the database's, which no change to the API can lower.
    const cpuRatio = postgresPerSend === undefined ? undefined : apiPerSend / postgresPerSend;
    return {
      passed: d.met && s.met && b.met && (cpuRatio === undefined || cpuRatio <= 2),
      cpu,
      rows: [
        [
          `accept: API CPU per send ÷ PostgreSQL's, POST /sender/send, ${HTTP_CONNECTIONS} connections, ${n} messages after ${n} unmeasured`,
          `${apiPerSend.toFixed(2)} ms`,
          postgresPerSend === undefined ? 'not read (DATABASE_URL)' : `${postgresPerSend.toFixed(2)} ms`,
          cpuRatio === undefined ? '—' : `${cpuRatio.toFixed(2)}×`,
          '≤ 2×',
          cpuRatio === undefined ? '—' : yes(cpuRatio <= 2),
        ],
        [
          `delivery: queued → worker → sink → sent, ${3 * n} messages${signing ? ', DKIM-signed' : ''}`,
          msgs(drained.rate),
          rawCell,
          d.ratio,
          '≥ 0.5× raw nodemailer',
          yes(d.met),
        ],
        [
          `end to end, single sends: HTTP (${HTTP_CONNECTIONS} connections) → API process → worker process → sink → sent, ${options.seconds} s`,
          msgs(single.rate),
          rawCell,
          s.ratio,
          '≥ 0.35× raw nodemailer',
          yes(s.met),
        ],
        [
          '  its accept rate / queued but not yet sent at the end',
          `${msgs(single.acceptRate)} / ${single.backlog}`,
          '',
          '',
          '',
          '',
        ],
        [
          `end to end, batch sends: ${MAX_BATCH_MESSAGES} a request (${BATCH_CLIENTS} clients) → API process → worker process → sink → sent, ${options.seconds} s`,
          msgs(batch.rate),
          rawCell,
          b.ratio,
          '≥ 0.5× raw nodemailer',
          yes(b.met),
        ],
        [
          '  its accept rate / queued but not yet sent at the end',
          `${msgs(batch.acceptRate)} / ${batch.backlog}`,
          '',
          '',
          '',
          '',
        ],
        [
          `raw: nodemailer → sink, one process, pool of ${CONCURRENCY}, ${n} messages (median of 3)`,
          msgs(raw),
          '',
          '',
          '',
          '',
        ],
      ],
    };
  } finally {
    await sink.stop();
    await database.close();
  }
}

/** The same MIME messages Mailroom sends (toMimeMessage: HTML, text alternative, Message-ID), with nothing around them. */
async function rawNodemailer(sink: SinkProcess, count: number, signing: Signing): Promise<number> {
  const transport = createTransport({
    host: '127.0.0.1',
    port: sink.port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONCURRENCY,
    maxMessages: Infinity,
  });
  const started = performance.now();
  await runConcurrently(count, CONCURRENCY * 4, async (i) => {
    const m = message(i);
    await transport.sendMail(await rawMimeOf(m, signing));
  });
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  return count / seconds;
}

/** A bench message as the MIME message Mailroom would send (toMimeMessage), for the raw baselines. */
export function rawMimeOf(m: { subject: string; html: string; to: string[]; sender: string }, signing?: Signing) {
  return toMimeMessage({
    id: randomUUID(),
    from: m.sender,
    to: m.to,
    cc: [],
    bcc: [],
    replyTo: [],
    subject: m.subject,
    html: m.html,
    text: null,
    headers: {},
    attachments: [],
    dkim: signing,
  });
}

/** POST as the bench user, expecting 201. */
export async function post(port: number, path: string, body: unknown): Promise<void> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method: 'POST',
    headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`);
}

function sendSingly(port: number, count: number): Promise<void> {
  return runConcurrently(count, HTTP_CONNECTIONS, (i) => post(port, '/sender/send', message(i)));
}

/** `count` messages (`messageOf`, the bench's own by default) in batches of the most a request takes. */
export function sendInBatches(port: number, count: number, messageOf: (i: number) => object = message): Promise<void> {
  const batches = Math.ceil(count / MAX_BATCH_MESSAGES);
  return runConcurrently(batches, BATCH_CLIENTS, (b) =>
    post(port, '/sender/send/batch', {
      messages: Array.from({ length: Math.min(MAX_BATCH_MESSAGES, count - b * MAX_BATCH_MESSAGES) }, (_, i) =>
        messageOf(b * MAX_BATCH_MESSAGES + i),
      ),
    }),
  );
}

/**
 * The delivery path alone: `count` queued messages drained by a ROLE=worker process, timed (and
 * its CPU read) from the first message the sink accepts, so that the worker's start-up is not
 * counted, to the last message's status being `sent`.
 */
export async function drain(
  database: BenchDatabase,
  sink: SinkProcess,
  count: number,
  startWorker: () => ReturnType<typeof startMailroomProcess>,
) {
  const before = await sink.count();
  const worker = await startWorker();
  try {
    const processes = { worker: worker.pid, sink: sink.pid, postgres: database.serverPid };
    await sink.waitFor(before + 1, 60_000);
    const started = performance.now();
    const cpuBefore = cpuNow(processes);
    const first = await sink.count();
    await sink.waitFor(before + count, 600_000);
    await waitUntilAllSent(database.url);
    const rate = (before + count - first) / ((performance.now() - started) / 1000);
    return {
      rate,
      cpu: cpuRow(
        'deliver: queued → worker → sink → sent',
        cpuBefore,
        cpuNow(processes),
        before + count - first,
        msEach,
      ),
    };
  } finally {
    await worker.stop();
  }
}

/**
 * A ROLE=api process under `seconds` of load while a ROLE=worker process delivers: the rate is
 * the messages that reached `sent` during the load (so a backlog the API builds does not count).
 * Its CPU row is each process's share of a core during the load.
 */
async function endToEnd(
  database: BenchDatabase,
  sink: SinkProcess,
  seconds: number,
  kind: 'single' | 'batch',
  startApi: () => ReturnType<typeof startMailroomProcess>,
  startWorker: () => ReturnType<typeof startMailroomProcess>,
  signing: Signing,
) {
  const api = await startApi();
  if (signing) await addVerifiedDomain(database.url, signing);
  const worker = await startWorker();
  const client = new Client({ connectionString: database.url });
  // A connection lost between queries is reported by the next query; unlistened, it would crash the bench.
  client.on('error', () => undefined);
  await client.connect();
  const counts = async () =>
    (
      await client.query(
        `SELECT count(*)::int AS accepted, count(*) FILTER (WHERE status = 'sent')::int AS sent FROM messages`,
      )
    ).rows[0] as { accepted: number; sent: number };
  try {
    const processes = { api: api.pid, worker: worker.pid, sink: sink.pid, postgres: database.serverPid };
    const start = await counts();
    const cpuBefore = cpuNow(processes);
    const started = performance.now();
    const load = await autocannon({
      url: `http://127.0.0.1:${api.port}${kind === 'single' ? '/sender/send' : '/sender/send/batch'}`,
      method: 'POST',
      connections: kind === 'single' ? HTTP_CONNECTIONS : BATCH_CLIENTS,
      duration: seconds,
      headers: { authorization: AUTHORIZATION, 'content-type': 'application/json' },
      body: JSON.stringify(
        kind === 'single' ? message(0) : { messages: Array.from({ length: MAX_BATCH_MESSAGES }, (_, i) => message(i)) },
      ),
    });
    const elapsed = (performance.now() - started) / 1000;
    const cpuAfter = cpuNow(processes);
    const end = await counts();
    checkNothingDied();
    const failures = load.non2xx + load.errors + load.timeouts;
    if (failures > 0)
      throw new Error(
        `end to end (${kind}): ${load.non2xx} non-2xx answers, ${load.errors} errors, ${load.timeouts} timeouts`,
      );
    const label = kind === 'single' ? 'single sends' : 'batch sends';
    return {
      rate: (end.sent - start.sent) / elapsed,
      acceptRate: (end.accepted - start.accepted) / elapsed,
      backlog: end.accepted - end.sent,
      cpu: cpuRow(
        `end to end, ${label}: share of a core during the load`,
        cpuBefore,
        cpuAfter,
        elapsed * 1000,
        coreShare,
      ),
    };
  } finally {
    await client.end();
    await worker.stop();
    await api.stop();
  }
}

/** The bench user's example.com as a verified sending domain with the signing key, as if verify had found its record. */
async function addVerifiedDomain(databaseUrl: string, signing: NonNullable<Signing>): Promise<void> {
  const id = randomUUID();
  const sealed = new DkimKeyCipher({ deliverability: { encryptionKey: BENCH_DATA_ENCRYPTION_KEY } } as AppConfig).seal(
    signing.privateKey.export({ type: 'pkcs8', format: 'der' }),
    id,
  );
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(
    `INSERT INTO sending_domains (id, user_id, name, selector, public_key, private_key, verified_at, created_at)
     VALUES ($1, 'bench', 'example.com', 'bench', '', $2, now(), now()) ON CONFLICT DO NOTHING`,
    [id, sealed],
  );
  await client.end();
}

/** What autovacuum does within a minute of such a burst: fresh statistics for the planner. */
async function analyze(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('ANALYZE');
  await client.end();
}

async function waitUntilAllSent(databaseUrl: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  client.on('error', () => undefined); // as in endToEnd
  await client.connect();
  try {
    for (;;) {
      checkNothingDied();
      const { rows } = await client.query(`SELECT count(*)::int AS unsent FROM messages WHERE status <> 'sent'`);
      if (rows[0].unsent === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      messages: { type: 'string', default: '5000' },
      seconds: { type: 'string', default: '60' },
      signed: { type: 'boolean', default: false },
    },
  });
  const options = {
    messages: Number(values.messages),
    seconds: Number(values.seconds),
    signed: values.signed,
  };
  for (const [name, value] of Object.entries({ messages: options.messages, seconds: options.seconds })) {
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number ≥ 1`);
  }
  runBench(async () => {
    const result = await deliveryBench(options);
    process.stdout.write(
      `\nDelivery benchmark\n\n${markdownTable(RESULT_HEADER, result.rows)}\n\n` +
        `CPU ms per message (share of a core for the end-to-end loads)\n\n${markdownTable(CPU_HEADER, result.cpu)}\n`,
    );
  });
}
