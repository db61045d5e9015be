// The list section of `npm run bench` (and `--only list`, `--only stats`): GET /user/messages on the
// seeded user of a million messages against the naive SQL pair (COUNT(*) + OFFSET/LIMIT) timed
// through pg in the same run, with query plans of both in bench/out/plans; the first page by an
// API key against the same by the JWT; GET /user/stats over 366 days against the first page.
import http from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/platform/database/data-source-options';
import { Database } from '../src/platform/database/database';
import { Reads } from '../src/platform/database/replica/reads';
import { PreparedStatements } from '../src/platform/database/prepared-statements';
import { ENTITIES } from '../src/entities';
import { ListMessagesQuery } from '../src/messages/dto/list-messages.query';
import { MessageCountsRepository } from '../src/messages/message-counts.repository';
import { MessagesRepository } from '../src/messages/messages.repository';
import { MessagesService } from '../src/messages/messages.service';
import { BENCH_USER, benchListDatabase } from './list-database';
import { seedListDatabase } from './seed';
import { BENCH_JWT_SECRET, benchBearer, median, ROOT, rssMiB, startMailroomProcess } from './support';

export interface ListOptions {
  /** Timed runs of each case (medians), after WARM_UP_RUNS unmeasured ones. */
  runs: number;
}

const PLANS = join(ROOT, 'bench/out/plans');
// Unmeasured runs of each list case, both sides, before its timed ones: they warm caches and
// connections, and let V8 compile the endpoint's path (with 3, the first cases measured a
// process still warming up: the first page at 3.9-5.5 ms, the same page 1.5 ms at the end).
export const WARM_UP_RUNS = 30;
// And before any case, this many requests in all, of each case in turn, unmeasured: the same 5%-status
// page took 2-2.6 ms in a new process's first few hundred requests and 1.2-1.3 ms after about
// 2,000, V8 compiling the request's path meanwhile, which a deployed API process did long ago.
const WARM_UP_REQUESTS = 2_000;

// 'info': a selective filter whose naive pair takes a millisecond or two, less than an HTTP
// round trip to any endpoint here (GET /health alone takes about 1.3 ms): shown, not judged.
type Target = 'half' | 'plus5' | 'info';
export interface ListCase {
  name: string;
  query: Record<string, string>;
  target: Target;
}

export const LIST_CASES: ListCase[] = [
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

export function timeEndpoint(
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
  // The endpoint's reads as Reads runs them without a replica: on the primary's prepared statements.
  const recording = {
    query: (_owner: string, sql: string, params: unknown[]) => (
      recorded.push({ sql, params }),
      statements.query(sql, params)
    ),
  } as unknown as Reads;
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
export async function onListDatabase<T>(
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
    env: { JWT_SECRET: BENCH_JWT_SECRET, RATE_LIMIT_PER_MINUTE: '100000000' },
  });
  const authorization = benchBearer(BENCH_USER);
  try {
    return { ...(await measure(mailroom.port, authorization, client, database.url)), rssAfter: rssMiB(mailroom.pid) };
  } finally {
    await mailroom.stop();
    await client.end();
    await database.close();
  }
}

export async function listBench({
  runs,
}: ListOptions): Promise<{ rows: string[][]; rssAfter: number; passed: boolean }> {
  return onListDatabase(async (port, authorization, client, url) => {
    const rows: string[][] = [];
    let passed = true;
    await savePlans(url, client);
    for (let i = 0; i < WARM_UP_REQUESTS; i++)
      await timeEndpoint(port, authorization, LIST_CASES[i % LIST_CASES.length].query);
    for (const c of LIST_CASES) {
      const endpoint: number[] = [];
      const naive: number[] = [];
      for (let i = 0; i < WARM_UP_RUNS + runs; i++) {
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
    const byKey = await apiKeyVersusJwt(port, authorization, runs);
    passed &&= byKey.ok;
    rows.push(byKey.row);
    const stats = await statsVersusFirstPage(port, authorization, runs);
    passed &&= stats.ok;
    rows.push(stats.row);
    return { rows, passed };
  });
}

/** `--only stats`: the stats row of the list section alone. */
export function statsBench({ runs }: ListOptions): Promise<{ rows: string[][] }> {
  return onListDatabase(async (port, authorization) => ({
    rows: [(await statsVersusFirstPage(port, authorization, runs)).row],
  }));
}

/** Two timings taken in turns, WARM_UP_RUNS unmeasured then `runs` measured: the median of each. */
async function inTurns(runs: number, a: () => Promise<number>, b: () => Promise<number>): Promise<[number, number]> {
  const [timesA, timesB]: number[][] = [[], []];
  for (let i = 0; i < WARM_UP_RUNS + runs; i++) {
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
 * what checking a key costs on the list path (docs/api.md#smtp-submission: a key seen before costs no database
 * round trip). The baseline column is the JWT's.
 */
async function apiKeyVersusJwt(port: number, jwt: string, runs: number): Promise<{ row: string[]; ok: boolean }> {
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
      runs,
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
 * GET /user/stats over 366 days of the seeded million messages (docs/api.md#reading-back: from the kept per-day
 * counts, never a scan), in turns with the first page of the list, whose time is the baseline.
 */
async function statsVersusFirstPage(
  port: number,
  authorization: string,
  runs: number,
): Promise<{ row: string[]; ok: boolean }> {
  // The seed's year, to its last day (bench/seed.ts): 366 days, every one with messages.
  const year = { startDate: '2025-11-21', endDate: '2026-11-21' };
  const [s, l] = await inTurns(
    runs,
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
