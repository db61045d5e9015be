// npm run bench [-- --runs 25 --seconds 20 --messages 5000 --delivery-seconds 60]
// The list, send, batch and delivery benchmarks of the performance issue, as ratios measured in one run:
// - GET /user/messages on the seeded user of a million messages (npm run bench:seed, run first
//   when its database is missing) against the naive SQL pair (COUNT(*) + ORDER BY … OFFSET …
//   LIMIT) timed through pg in the same run; query plans of both are written to bench/out/plans;
//   and its first page by an API key against the same by the JWT; GET /user/stats over 366 days of
//   that user (SPEC §12: from the kept per-day counts) against the list's first page, in turns;
// - POST /sender/send under autocannon (32 connections) against the same inserts run straight
//   through pg with the same concurrency;
// - POST /sender/send/batch (100 messages a request, a few clients) against the same rows loaded
//   through pg with COPY, as accepted messages per second;
// - the resident memory of the Mailroom process (API and worker in one, ROLE=all), and of an API
//   process taking 20 uploads of 10 MiB at once;
// - delivery (delivery.bench.ts): queued → worker → sink → sent, and end to end (an API process
//   under --delivery-seconds of single or batch sends, a separate worker process), against raw
//   nodemailer to the same sink, with each process's CPU per message;
// - the console (console.bench.ts): its first load's gzip size, and its Messages page on the
//   seeded million messages in Chromium;
// - events (events.bench.ts): sends and delivery with 0 and with 1 subscribed webhook endpoint, and the
//   fan-out rate of account events to 3 endpoints (SPEC §11).
// Writes the tables to bench/results.md (`--only list`, `stats`, `send`, `batch`, `uploads`, `delivery` or `events` runs one
// section and only prints it; `--only console` rewrites only the console's section there). Uses DATABASE_URL's server when set, else embedded ones.
import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { plainToInstance } from 'class-transformer';
import { sign } from 'jsonwebtoken';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';
import { ENTITIES } from '../src/entities';
import { Database } from '../src/database/database';
import { PreparedStatements } from '../src/database/prepared-statements';
import { ListMessagesQuery } from '../src/messages/dto/list-messages.query';
import { MessageCountsRepository } from '../src/messages/message-counts.repository';
import { MessagesRepository } from '../src/messages/messages.repository';
import { MessagesService } from '../src/messages/messages.service';
import { DELIVERY_QUEUE } from '../src/queue/delivery-queue';
import { BATCH_SIZE, copyBatchCeiling } from './copy-ceiling';
import { consoleBench } from './console.bench';
import { CPU_HEADER, deliveryBench, tableOf as markdownTable } from './delivery.bench';
import { eventsBench } from './events.bench';
import { BENCH_USER, benchListDatabase } from './list-database';
import { rawSendCeiling, SEND_BODY } from './raw-send';
import { seedListDatabase } from './seed';
import {
  benchDatabase,
  median,
  MailroomProcess,
  ROOT,
  rssMiB,
  runBench,
  SinkProcess,
  startMailroomProcess,
} from './support';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '20' },
    messages: { type: 'string', default: '5000' },
    'delivery-seconds': { type: 'string', default: '60' },
    only: { type: 'string' },
  },
});
const RUNS = Number(values.runs);
const SECONDS = Number(values.seconds);
const DELIVERY = { messages: Number(values.messages), seconds: Number(values['delivery-seconds']) };
// Each of the events section's halves: enough to time, few enough to run beside the rest.
const EVENT_MESSAGES = Math.min(Number(values.messages), 2000);
const CONNECTIONS = 32;
// A few clients, each with a batch of BATCH_SIZE in flight: what a bulk sender does.
const BATCH_CLIENTS = 4;
const SECRET = 'bench-secret-of-at-least-thirty-two-characters';
const PLANS = join(ROOT, 'bench/out/plans');
// Unmeasured runs of each list case, both sides, before its timed ones: they warm caches and
// connections, and let V8 compile the endpoint's path (with 3, the first cases measured a
// process still warming up: the first page at 3.9-5.5 ms, the same page 1.5 ms at the end).
const WARM_UP_RUNS = 30;
// The memory target's upload scenario: 20 files of MAX_ATTACHMENT_BYTES's default at once.
const UPLOADS = 20;
const UPLOAD_BYTES = 10 * 1024 * 1024;

// 'info': a selective filter whose naive pair takes a millisecond or two, less than an HTTP
// round trip to any endpoint here (GET /health alone takes about 1.3 ms): shown, not judged.
type Target = 'half' | 'plus5' | 'info';
interface ListCase {
  name: string;
  query: Record<string, string>;
  target: Target;
}

const LIST_CASES: ListCase[] = [
  { name: 'first page, no filter', query: {}, target: 'half' },
  { name: 'page 5,000 (take 100)', query: { page: '5000', take: '100' }, target: 'half' },
  { name: 'statuses=failed (5%)', query: { statuses: 'failed' }, target: 'half' },
  { name: 'startDate–endDate (June)', query: { startDate: '2026-06-01', endDate: '2026-06-30' }, target: 'half' },
  { name: 'fromEmail (one of 5 senders)', query: { fromEmail: 'billing@example.com' }, target: 'half' },
  { name: 'toEmail (ops@, a tenth of all mail)', query: { toEmail: 'ops@example.com' }, target: 'half' },
  { name: 'bulkSending (a 50,000-message campaign)', query: { bulkSending: 'campaign-2' }, target: 'half' },
  {
    name: 'statuses + dates + toEmail',
    query: { statuses: 'sent,failed', startDate: '2026-01-01', endDate: '2026-10-31', toEmail: 'ops@example.com' },
    target: 'plus5',
  },
  { name: 'includeStatusHistory=true', query: { includeStatusHistory: 'true' }, target: 'plus5' },
  { name: 'toEmail (a customer with 50 messages)', query: { toEmail: 'r4242@example.com' }, target: 'info' },
];

/** The SQL every other implementation runs: COUNT(*) and OFFSET/LIMIT over the same filter. */
function naiveQueries(query: Record<string, string>) {
  const params: unknown[] = [BENCH_USER];
  const where = ['m.user_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (query.statuses) add((p) => `m.status = ANY(${p}::text[])`, query.statuses.split(','));
  if (query.startDate) add((p) => `m.sent_at >= ${p}`, new Date(query.startDate));
  if (query.endDate) add((p) => `m.sent_at <= ${p}`, new Date(Date.parse(query.endDate) + 86_400_000 - 1));
  if (query.fromEmail)
    add((p) => `m.sender_id = (SELECT id FROM senders WHERE user_id = $1 AND email = ${p})`, query.fromEmail);
  if (query.toEmail)
    add(
      (p) => `EXISTS (SELECT 1 FROM message_recipients r WHERE r.message_id = m.id AND r.email = ${p})`,
      query.toEmail,
    );
  if (query.bulkSending) add((p) => `m.bulk_sending_id = ${p}`, query.bulkSending);
  const take = Number(query.take ?? 10);
  const skip = (Number(query.page ?? 1) - 1) * take;
  return {
    count: { sql: `SELECT count(*) FROM messages m WHERE ${where.join(' AND ')}`, params },
    rows: {
      sql: `SELECT m.id, m.user_id, m.sender_id, m.sender, m.recipients, m.subject, m.status, m.priority, m.bulk_sending_id,
              m.contact_id, m.custom_payload, m.sent_at
            FROM messages m WHERE ${where.join(' AND ')} ORDER BY m.sent_at DESC, m.id DESC OFFSET ${skip} LIMIT ${take}`,
      params,
    },
    histories: query.includeStatusHistory === 'true',
  };
}

async function timeNaive(client: Client, query: Record<string, string>): Promise<number> {
  const naive = naiveQueries(query);
  const started = performance.now();
  await client.query(naive.count.sql, naive.count.params);
  const { rows } = await client.query(naive.rows.sql, naive.rows.params);
  if (naive.histories) {
    await client.query(
      `SELECT message_id, status, at, detail FROM message_status_events WHERE message_id = ANY($1::uuid[]) ORDER BY message_id, id`,
      [rows.map((r) => r.id)],
    );
  }
  return performance.now() - started;
}

// Node's own HTTP client on one kept-alive connection, as pg's client is for the naive pair:
// fetch (undici) spends about half a millisecond of its own per request here, which is the
// client's cost, not the endpoint's.
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

function timeEndpoint(
  port: number,
  authorization: string,
  query: Record<string, string>,
  route = '/user/messages',
): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const path = `${route}?${new URLSearchParams(query).toString()}`;
    http
      .get({ host: '127.0.0.1', port, path, agent: keepAlive, headers: { authorization } }, (response) => {
        response.resume();
        response.once('error', reject);
        response.once('end', () =>
          response.statusCode === 200
            ? resolve(performance.now() - started)
            : reject(new Error(`GET ${path} answered ${response.statusCode}`)),
        );
      })
      .once('error', reject);
  });
}

/** EXPLAIN ANALYZE of the naive pair and of the statements the endpoint runs, one file per case. */
async function savePlans(url: string, client: Client): Promise<void> {
  mkdirSync(PLANS, { recursive: true });
  const dataSource = new DataSource(dataSourceOptions(url, ENTITIES));
  await dataSource.initialize();
  let recorded: { sql: string; params: unknown[] }[] = [];
  const statements = new PreparedStatements(new Database(dataSource));
  const recording = {
    query: (sql: string, params: unknown[]) => (recorded.push({ sql, params }), statements.query(sql, params)),
  } as PreparedStatements;
  const messages = new MessagesRepository(recording);
  const service = new MessagesService(messages, new MessageCountsRepository(recording, messages));
  const explain = async (sql: string, params: unknown[]) =>
    (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
  for (const c of LIST_CASES) {
    recorded = [];
    await service.list(BENCH_USER, plainToInstance(ListMessagesQuery, { ...c.query }));
    const naive = naiveQueries(c.query);
    const sections: string[] = [];
    for (const [i, q] of recorded.entries())
      sections.push(`-- Mailroom, statement ${i + 1}\n${q.sql}\n\n${await explain(q.sql, q.params)}`);
    sections.push(
      `-- naive count\n${await explain(naive.count.sql, naive.count.params)}`,
      `-- naive page\n${await explain(naive.rows.sql, naive.rows.params)}`,
    );
    writeFileSync(
      join(PLANS, `${c.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.txt`),
      `${sections.join('\n\n')}\n`,
    );
  }
  await dataSource.destroy();
}

/**
 * Runs `measure` against an API process on the seeded list database (seeding it first when it is
 * missing), with a token of the million-message user; the process's RSS afterwards.
 */
async function onListDatabase<T>(
  measure: (port: number, authorization: string, client: Client, url: string) => Promise<T>,
): Promise<T & { rssAfter: number }> {
  const database = await benchListDatabase();
  const client = new Client({ connectionString: database.url });
  await client.connect();
  const seeded = await client
    .query(`SELECT to_regclass('messages') IS NOT NULL AND EXISTS (SELECT 1 FROM messages WHERE user_id = $1) AS ok`, [
      BENCH_USER,
    ])
    .catch(() => ({ rows: [{ ok: false }] }));
  if (!seeded.rows[0].ok) {
    await client.end();
    await database.close();
    console.log('No seeded list database yet: seeding it (npm run bench:seed) …');
    await seedListDatabase();
    return onListDatabase(measure);
  }
  // An API process, as serves lists in a deployment: a worker's loops would share its event loop.
  const mailroom = await startMailroomProcess(database.url, {
    role: 'api',
    env: { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const authorization = `Bearer ${sign({}, SECRET, { algorithm: 'HS256', subject: BENCH_USER, expiresIn: 3600 })}`;
  try {
    return { ...(await measure(mailroom.port, authorization, client, database.url)), rssAfter: rssMiB(mailroom.pid) };
  } finally {
    await mailroom.stop();
    await client.end();
    await database.close();
  }
}

async function listBench(): Promise<{ rows: string[][]; rssAfter: number; passed: boolean }> {
  return onListDatabase(async (port, authorization, client, url) => {
    const rows: string[][] = [];
    let passed = true;
    await savePlans(url, client);
    for (const c of LIST_CASES) {
      const endpoint: number[] = [];
      const naive: number[] = [];
      for (let i = 0; i < WARM_UP_RUNS + RUNS; i++) {
        const e = await timeEndpoint(port, authorization, c.query);
        const n = await timeNaive(client, c.query);
        if (i >= WARM_UP_RUNS) {
          endpoint.push(e);
          naive.push(n);
        }
      }
      const [e, n] = [median(endpoint), median(naive)];
      const limit = c.target === 'half' ? n * 0.5 : n + 5;
      const ok = e <= limit && (c.name !== 'first page, no filter' || e < 20);
      if (c.target !== 'info') passed &&= ok;
      const target = { half: '≤ 0.5× naive', plus5: '≤ naive + 5 ms', info: 'shown, not judged' }[c.target];
      const met = c.target === 'info' ? '—' : ok ? 'yes' : '**no**';
      rows.push([
        `list: ${c.name}`,
        `${e.toFixed(1)} ms`,
        `${n.toFixed(1)} ms`,
        `${(e / n).toFixed(2)}×`,
        c.name.startsWith('first page') ? `${target}, < 20 ms` : target,
        met,
      ]);
    }
    const byKey = await apiKeyVersusJwt(port, authorization);
    passed &&= byKey.ok;
    rows.push(byKey.row);
    const stats = await statsVersusFirstPage(port, authorization);
    passed &&= stats.ok;
    rows.push(stats.row);
    return { rows, passed };
  });
}

/** `--only stats`: the stats row of the list section alone. */
function statsBench(): Promise<{ rows: string[][] }> {
  return onListDatabase(async (port, authorization) => ({
    rows: [(await statsVersusFirstPage(port, authorization)).row],
  }));
}

/** Two timings taken in turns, WARM_UP_RUNS unmeasured then RUNS measured: the median of each. */
async function inTurns(a: () => Promise<number>, b: () => Promise<number>): Promise<[number, number]> {
  const [timesA, timesB]: number[][] = [[], []];
  for (let i = 0; i < WARM_UP_RUNS + RUNS; i++) {
    const [ta, tb] = [await a(), await b()];
    if (i >= WARM_UP_RUNS) {
      timesA.push(ta);
      timesB.push(tb);
    }
  }
  return [median(timesA), median(timesB)];
}

/**
 * The first page again, asked for in turns with an API key of the same user and with the JWT:
 * what checking a key costs on the list path (SPEC §10: a key seen before costs no database
 * round trip). The baseline column is the JWT's.
 */
async function apiKeyVersusJwt(port: number, jwt: string): Promise<{ row: string[]; ok: boolean }> {
  const base = `http://127.0.0.1:${port}/user/api-keys`;
  const created = await fetch(base, {
    method: 'POST',
    headers: { authorization: jwt, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['read'] }),
  });
  if (created.status !== 201) throw new Error(`POST /user/api-keys answered ${created.status}`);
  const { id, key } = (await created.json()) as { id: string; key: string };
  try {
    const [k, j] = await inTurns(
      () => timeEndpoint(port, `Bearer ${key}`, {}),
      () => timeEndpoint(port, jwt, {}),
    );
    const ok = k <= j + 1;
    return {
      row: [
        'list: first page by API key (vs JWT)',
        `${k.toFixed(1)} ms`,
        `${j.toFixed(1)} ms`,
        `${(k / j).toFixed(2)}×`,
        '≤ JWT + 1 ms',
        ok ? 'yes' : '**no**',
      ],
      ok,
    };
  } finally {
    await fetch(`${base}/${id}`, { method: 'DELETE', headers: { authorization: jwt } });
  }
}

/**
 * GET /user/stats over 366 days of the seeded million messages (SPEC §12: from the kept per-day
 * counts, never a scan), in turns with the first page of the list, whose time is the baseline.
 */
async function statsVersusFirstPage(port: number, authorization: string): Promise<{ row: string[]; ok: boolean }> {
  // The seed's year, to its last day (bench/seed.ts): 366 days, every one with messages.
  const year = { startDate: '2025-11-21', endDate: '2026-11-21' };
  const [s, l] = await inTurns(
    () => timeEndpoint(port, authorization, year, '/user/stats'),
    () => timeEndpoint(port, authorization, {}),
  );
  const ok = s < 20;
  return {
    row: [
      'stats: 366 days (vs the first page of the list)',
      `${s.toFixed(1)} ms`,
      `${l.toFixed(1)} ms`,
      `${(s / l).toFixed(2)}×`,
      '< 20 ms',
      ok ? 'yes' : '**no**',
    ],
    ok,
  };
}

async function sendBench(): Promise<{ rows: string[][]; peakRss: number; passed: boolean }> {
  const sink = await SinkProcess.start();
  const database = await benchDatabase();
  let mailroom: MailroomProcess | undefined;
  try {
    mailroom = await startMailroomProcess(database.url, {
      role: 'all',
      env: { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000000', SMTP_URL: `smtp://127.0.0.1:${sink.port}` },
    });
    const authorization = `Bearer ${sign({}, SECRET, { algorithm: 'HS256', subject: 'bench-sender', expiresIn: 3600 })}`;
    let peakRss = 0;
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(mailroom!.pid))), 250);
    const load = await autocannon({
      url: `http://127.0.0.1:${mailroom.port}/sender/send`,
      method: 'POST',
      connections: CONNECTIONS,
      duration: SECONDS,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(SEND_BODY),
    });
    clearInterval(sampler);
    await mailroom.stop();
    mailroom = undefined;
    // Every 201 must be a stored message with its delivery job (queued, or already delivered);
    // requests still in flight when the load stopped may add stored messages beyond the 201s counted.
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const {
      rows: [stored],
    } = await client.query(
      `SELECT (SELECT count(*)::int FROM messages) AS messages,
              (SELECT count(*)::int FROM pgboss.job WHERE name = $1)
                + (SELECT count(*)::int FROM pgboss.archive WHERE name = $1) AS jobs`,
      [DELIVERY_QUEUE],
    );
    await client.end();
    const accepted = load['2xx'];
    const failures = load.non2xx + load.errors + load.timeouts;
    const rate = accepted / SECONDS;
    const ceiling = await rawSendCeiling(database.url, CONNECTIONS, SECONDS);
    const durable = stored.messages >= accepted && stored.jobs === stored.messages;
    const fastEnough = load.latency.p99 < 100;
    const passed = failures === 0 && durable && rate >= ceiling * 1.5 && fastEnough;
    return {
      peakRss,
      passed,
      rows: [
        [
          `send: POST /sender/send, ${CONNECTIONS} connections, ${SECONDS} s`,
          `${rate.toFixed(0)} msg/s`,
          `${ceiling.toFixed(0)} msg/s`,
          `${(rate / ceiling).toFixed(2)}×`,
          '≥ 1.5× one transaction per message',
          rate >= ceiling * 1.5 ? 'yes' : '**no**',
        ],
        [
          'send latency p50 / p99',
          `${load.latency.p50} / ${load.latency.p99} ms`,
          '',
          '',
          'p99 < 100 ms',
          fastEnough ? 'yes' : '**no**',
        ],
        [
          'send errors (non-2xx, socket errors, timeouts)',
          String(failures),
          '',
          '',
          '0',
          failures === 0 ? 'yes' : '**no**',
        ],
        [
          '201s ≤ stored messages = delivery jobs',
          `${accepted} ≤ ${stored.messages} = ${stored.jobs}`,
          '',
          '',
          'all durable',
          durable ? 'yes' : '**no**',
        ],
        [
          'peak RSS under the send load (ROLE=all: API and worker)',
          `${peakRss.toFixed(0)} MiB`,
          '',
          '',
          '< 300 MiB',
          peakRss < 300 ? 'yes' : '**no**',
        ],
      ],
    };
  } finally {
    await mailroom?.stop();
    await sink.stop();
    await database.close();
  }
}

async function batchBench(): Promise<{ rows: string[][]; passed: boolean }> {
  const database = await benchDatabase();
  let mailroom: MailroomProcess | undefined;
  try {
    // ROLE=api: this measures acceptance, as the COPY ceiling does; delivery has its own bench.
    mailroom = await startMailroomProcess(database.url, {
      role: 'api',
      env: { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000000' },
    });
    const authorization = `Bearer ${sign({}, SECRET, { algorithm: 'HS256', subject: 'bench-batch', expiresIn: 3600 })}`;
    const load = await autocannon({
      url: `http://127.0.0.1:${mailroom.port}/sender/send/batch`,
      method: 'POST',
      connections: BATCH_CLIENTS,
      duration: SECONDS,
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ messages: Array.from({ length: BATCH_SIZE }, () => SEND_BODY) }),
    });
    await mailroom.stop();
    mailroom = undefined;
    const client = new Client({ connectionString: database.url });
    await client.connect();
    const {
      rows: [stored],
    } = await client.query(
      `SELECT (SELECT count(*)::int FROM messages) AS messages, (SELECT count(*)::int FROM pgboss.job WHERE name = $1) AS jobs`,
      [DELIVERY_QUEUE],
    );
    await client.end();
    const accepted = load['2xx'] * BATCH_SIZE;
    const failures = load.non2xx + load.errors + load.timeouts;
    const rate = accepted / SECONDS;
    const ceiling = await copyBatchCeiling(database.url, BATCH_CLIENTS, SECONDS);
    const durable = stored.messages >= accepted && stored.jobs === stored.messages;
    const fastEnough = rate >= 3000 && rate >= ceiling * 0.3;
    const passed = failures === 0 && durable && fastEnough;
    return {
      passed,
      rows: [
        [
          `batch: POST /sender/send/batch, ${BATCH_SIZE} a request, ${BATCH_CLIENTS} clients, ${SECONDS} s`,
          `${rate.toFixed(0)} msg/s`,
          `${ceiling.toFixed(0)} msg/s`,
          `${(rate / ceiling).toFixed(2)}×`,
          '≥ 3,000 msg/s and ≥ 0.3× COPY',
          fastEnough ? 'yes' : '**no**',
        ],
        ['batch latency p50 / p99', `${load.latency.p50} / ${load.latency.p99} ms`, '', '', '', ''],
        [
          'batch errors (non-2xx, socket errors, timeouts)',
          String(failures),
          '',
          '',
          '0',
          failures === 0 ? 'yes' : '**no**',
        ],
        [
          'batch: accepted ≤ stored messages = delivery jobs',
          `${accepted} ≤ ${stored.messages} = ${stored.jobs}`,
          '',
          '',
          'all durable',
          durable ? 'yes' : '**no**',
        ],
      ],
    };
  } finally {
    await mailroom?.stop();
    await database.close();
  }
}

/** The resident memory of an API process while UPLOADS files of the largest size arrive at once. */
async function uploadBench(): Promise<{ rows: string[][]; peakRss: number }> {
  const database = await benchDatabase();
  let mailroom: MailroomProcess | undefined;
  try {
    mailroom = await startMailroomProcess(database.url, {
      role: 'api',
      env: { JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000000' },
    });
    const authorization = `Bearer ${sign({}, SECRET, { algorithm: 'HS256', subject: 'bench-uploads', expiresIn: 3600 })}`;
    const file = new Blob([Buffer.alloc(UPLOAD_BYTES, 0x61)]);
    const pid = mailroom.pid;
    let peakRss = rssMiB(pid);
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMiB(pid))), 50);
    const statuses = await Promise.all(
      Array.from({ length: UPLOADS }, async (_, i) => {
        const form = new FormData();
        form.append('file', file, `bench-${i}.bin`);
        const response = await fetch(`http://127.0.0.1:${mailroom!.port}/attachments`, {
          method: 'POST',
          headers: { authorization },
          body: form,
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    clearInterval(sampler);
    const stored = statuses.filter((status) => status === 201).length;
    return {
      peakRss,
      rows: [
        [
          `peak RSS under ${UPLOADS} concurrent ${UPLOAD_BYTES / 1024 / 1024} MiB uploads`,
          `${peakRss.toFixed(0)} MiB`,
          '',
          '',
          '< 300 MiB',
          peakRss < 300 ? 'yes' : '**no**',
        ],
        ['uploads stored (201)', `${stored} of ${UPLOADS}`, '', '', 'all', stored === UPLOADS ? 'yes' : '**no**'],
      ],
    };
  } finally {
    await mailroom?.stop();
    await database.close();
  }
}

const HEADER = ['| measure | Mailroom | baseline | ratio | target | met |', '|---|---|---|---|---|---|'];
const tableOf = (rows: string[][]) => [...HEADER, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
const CPU_TITLE =
  "CPU ms per message by process (raw, accept and deliver rows; Linux CPU time, 10 ms ticks), and each process's share of a core during the end-to-end loads:";

const RESULTS = join(ROOT, 'bench/results.md');
const CONSOLE_TITLE = '## Console (SPEC §14)';

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
    const sections: Record<string, () => Promise<{ rows: string[][]; cpu?: string[][] }>> = {
      list: listBench,
      stats: statsBench,
      send: sendBench,
      batch: batchBench,
      uploads: uploadBench,
      delivery: () => deliveryBench(DELIVERY),
      events: () => eventsBench({ messages: EVENT_MESSAGES }),
    };
    if (!sections[values.only]) throw new Error(`--only takes ${[...Object.keys(sections), 'console'].join(', ')}`);
    const { rows, cpu } = await sections[values.only]();
    console.log(
      `\n${tableOf(rows)}\n${cpu ? `\n${CPU_TITLE}\n\n${markdownTable(CPU_HEADER, cpu)}\n` : ''}\n(one section: bench/results.md left as it was)`,
    );
    return;
  }
  const list = await listBench();
  const send = await sendBench();
  const batch = await batchBench();
  const uploads = await uploadBench();
  const delivery = await deliveryBench(DELIVERY);
  const events = await eventsBench({ messages: EVENT_MESSAGES });
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
  const table = tableOf([...list.rows, ...send.rows, ...batch.rows, ...delivery.rows, ...events.rows, ...memory]);
  const cpu = markdownTable(CPU_HEADER, delivery.cpu);
  const report =
    `# Benchmark results\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL'}, ` +
    `${RUNS} timed runs per list case, medians). List baseline: the naive SQL pair through pg; send baseline: the same inserts ` +
    `through pg with ${CONNECTIONS} connections; batch baseline: the same rows loaded with COPY through pg from ${BATCH_CLIENTS} clients, ` +
    `one transaction per ${BATCH_SIZE} messages; delivery baseline: raw nodemailer sending the same messages to the same sink ` +
    `(end to end: ${DELIVERY.seconds} s of load). Query plans: bench/out/plans.\n\n${table}\n\n${CPU_TITLE}\n\n${cpu}\n`;
  const consoleResults = await consoleSection();
  writeFileSync(RESULTS, `${report}\n${consoleResults}`);
  console.log(`\n${table}\n\n${cpu}\n\n${consoleResults}\nwritten to bench/results.md`);
}

runBench(main);
