// npm run bench:delivery [-- --messages 5000] [--profile]
// Delivery throughput (queue → worker → SMTP sink accepts → status sent), and end to end with
// the HTTP send in front, against the raw rate of nodemailer sending the same messages straight
// to the same sink from one process. Uses DATABASE_URL's server when set, else an embedded one.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sign } from 'jsonwebtoken';
import { randomUUID } from 'node:crypto';
import { createTransport } from 'nodemailer';
import { toMimeMessage } from '../src/delivery/mailer/mime';
import { Client } from 'pg';
import { benchDatabase, median, ROOT, runConcurrently, SinkProcess, startMailroomProcess } from './support';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '5000' }, profile: { type: 'boolean', default: false } } });
// --profile: the Mailroom processes write V8 CPU profiles to bench/out/profiles.
const NODE_ARGS = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(ROOT, 'bench/out/profiles')}`] : [];
const MESSAGES = Number(values.messages);
const CONCURRENCY = 8; // WORKER_CONCURRENCY's default: SMTP connections on both sides
const HTTP_CONNECTIONS = 32;
const SECRET = 'bench-secret-of-at-least-thirty-two-characters';

const message = (i: number) => ({
  subject: `Benchmark message ${i}`,
  html: `<h1>Hello</h1><p>This is message <b>${i}</b> of the delivery benchmark.</p>`,
  to: [`user${i}@example.com`],
  sender: 'bench@example.com',
});

/** The same MIME messages Mailroom sends (toMimeMessage: HTML, text alternative, Message-ID), with nothing around them. */
async function rawNodemailer(sink: SinkProcess): Promise<number> {
  const transport = createTransport({ host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true, pool: true, maxConnections: CONCURRENCY, maxMessages: Infinity });
  const started = performance.now();
  await runConcurrently(MESSAGES, CONCURRENCY * 4, async (i) => {
    const m = message(i);
    await transport.sendMail(toMimeMessage({ id: randomUUID(), from: m.sender, to: m.to, cc: [], bcc: [], replyTo: [], subject: m.subject, html: m.html, text: null, headers: {}, attachments: [] }));
  });
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  return MESSAGES / seconds;
}

function startMailroom(databaseUrl: string, sink: SinkProcess, role: 'all' | 'api' | 'worker') {
  return startMailroomProcess(databaseUrl, {
    role,
    nodeArgs: NODE_ARGS,
    env: { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000000', SMTP_URL: `smtp://127.0.0.1:${sink.port}`, WORKER_CONCURRENCY: String(CONCURRENCY) },
  });
}

async function sendOverHttp(port: number, first: number): Promise<void> {
  const authorization = `Bearer ${sign({}, SECRET, { algorithm: 'HS256', subject: 'bench', expiresIn: 3600 })}`;
  await runConcurrently(MESSAGES, HTTP_CONNECTIONS, async (i) => {
    const response = await fetch(`http://127.0.0.1:${port}/sender/send`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(message(first + i)),
    });
    if (response.status !== 201) throw new Error(`send answered ${response.status}: ${await response.text()}`);
  });
}

/** ROLE=all: from the first HTTP send to the sink accepting the last message. */
async function endToEnd(databaseUrl: string, sink: SinkProcess): Promise<{ rate: number; acceptRate: number }> {
  const mailroom = await startMailroom(databaseUrl, sink, 'all');
  try {
    const before = await sink.count();
    const started = performance.now();
    await sendOverHttp(mailroom.port, 0);
    const accepted = performance.now();
    await sink.waitFor(before + MESSAGES, 600_000);
    await waitUntilAllSent(databaseUrl);
    const seconds = (performance.now() - started) / 1000;
    return { rate: MESSAGES / seconds, acceptRate: MESSAGES / ((accepted - started) / 1000) };
  } finally {
    await mailroom.stop();
  }
}

/**
 * The delivery path alone: messages queued by a ROLE=api process, drained by a ROLE=worker
 * process, timed from the first message the sink accepts (so the worker's start-up is not
 * counted) to the last message's status being `sent`.
 */
async function drain(databaseUrl: string, sink: SinkProcess): Promise<number> {
  const api = await startMailroom(databaseUrl, sink, 'api');
  await sendOverHttp(api.port, MESSAGES);
  await api.stop();
  await analyze(databaseUrl);
  const before = await sink.count();
  const worker = await startMailroom(databaseUrl, sink, 'worker');
  try {
    await sink.waitFor(before + 1, 60_000);
    const started = performance.now();
    const first = await sink.count();
    await sink.waitFor(before + MESSAGES, 600_000);
    await waitUntilAllSent(databaseUrl);
    return (before + MESSAGES - first) / ((performance.now() - started) / 1000);
  } finally {
    await worker.stop();
  }
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
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(`SELECT count(*)::int AS unsent FROM messages WHERE status <> 'sent'`);
      if (rows[0].unsent === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const sink = await SinkProcess.start();
  const database = await benchDatabase();
  try {
    // The raw rate moves by ±10% from one try to the next here: the median of three.
    const raw = median([await rawNodemailer(sink), await rawNodemailer(sink), await rawNodemailer(sink)]);
    const drained = await drain(database.url, sink);
    const { rate, acceptRate } = await endToEnd(database.url, sink);
    const rows = [
      ['raw: nodemailer → sink, one process, pool of 8 (median of 3)', `${raw.toFixed(0)} msg/s`],
      ['delivery: queued → worker (ROLE=worker) → sink accepted → status sent', `${drained.toFixed(0)} msg/s`],
      ['**ratio delivery / raw** (target ≥ 0.50)', `**${(drained / raw).toFixed(2)}**`],
      ['end to end, one ROLE=all process: HTTP send (32 connections) → sink', `${rate.toFixed(0)} msg/s`],
      ['  its HTTP accept phase alone', `${acceptRate.toFixed(0)} msg/s`],
      ['ratio end to end / raw', (rate / raw).toFixed(2)],
    ];
    process.stdout.write(`\nDelivery benchmark, ${MESSAGES} messages\n\n| measure | value |\n|---|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`);
  } finally {
    sink.stop();
    await database.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : error}\n`);
  process.exit(1);
});
