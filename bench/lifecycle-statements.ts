// node -r ts-node/register/transpile-only bench/lifecycle-statements.ts [--compare ../other-checkout | --unnamed]
//   [--messages 1000] [--batch 50] [--rounds 5] [--explain]
// The database's side of the delivery path, alone: the claim and the finish statements of
// MessageLifecycle, timed a batch at a time (the size the recorder groups under load) on messages
// accepted through MessageLifecycle.accept, with one recipient each and with three. With
// --compare, another checkout's lifecycle (its own migrations, in a database of its own) runs too,
// alternating with this one round by round, so that a busy machine slows both alike. With
// --unnamed, this checkout runs twice the same way, once as in session mode (named prepared
// statements) and once as in DATABASE_POOL_MODE=transaction (the same statements unnamed, parsed
// and planned on every run), both on direct connections: what the mode costs the statements
// alone, without a pooler's hop. Reports the
// medians over rounds of wall time and of the backend's CPU time (read from /proc, so only on a
// server on this machine) per message; --explain prints EXPLAIN (ANALYZE, BUFFERS) of one batch.
// On DATABASE_URL's server when set (its databases are dropped at the end), else an embedded one.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { benchDatabase, dropDatabases, ROOT, runBench } from './support';

const VARIANTS = [
  { name: '1 recipient', recipients: ['ada@example.com'] },
  { name: '3 recipients', recipients: ['ada@example.com', 'bob@example.com', 'cy@example.com'] },
];
const STATEMENTS = ['claim', 'finish'] as const;
const REPLY = '250 2.0.0 Ok: queued as 4Xk2';

type Statement = (typeof STATEMENTS)[number];
interface Sample {
  wallMs: number;
  cpuMs?: number;
}

/** What the bench uses of a checkout, loaded from its own files: each runs its own code on its own schema. */
interface Checkout {
  label: string;
  dataSource: DataSource;
  runner: QueryRunner;
  backendPid: number;
  lifecycle: {
    claim(manager: EntityManager, attempts: object[], returning: object): Promise<{ moved: unknown[] }>;
    finish(manager: EntityManager, outcomes: object[]): Promise<{ moved: unknown[] }>;
  };
  claimedColumns: object;
  storeMessages(db: DataSource, userId: string, fields: { recipients: string[] }[]): Promise<{ id: string }[]>;
}

async function openCheckout(
  root: string,
  label: string,
  url: string,
  poolMode: 'session' | 'transaction' = 'session',
): Promise<Checkout> {
  // Modules as the checkout resolves them, its dependencies from its own node_modules.
  const load = (path: string) => createRequire(join(root, 'package.json'))(path) as Record<string, unknown>;
  const { DataSource } = load('typeorm') as unknown as typeof import('typeorm');
  const { dataSourceOptions, runMigrationsExclusively } = load(
    './src/platform/database/data-source-options',
  ) as unknown as typeof import('../src/platform/database/data-source-options');
  const { ENTITIES } = load('./src/entities') as unknown as typeof import('../src/entities');
  const { MessageLifecycle } = load(
    './src/messages/lifecycle/message-lifecycle.repository',
  ) as unknown as typeof import('../src/messages/lifecycle/message-lifecycle.repository');
  const dataSource = new DataSource(dataSourceOptions(url, ENTITIES));
  // What the app does with DATABASE_POOL_MODE; a checkout from before the setting knows no mode.
  if (poolMode !== 'session')
    (load('./src/platform/database/pool-mode') as typeof import('../src/platform/database/pool-mode')).setPoolMode(
      dataSource,
      poolMode,
    );
  await dataSource.initialize();
  await runMigrationsExclusively(dataSource);
  // One connection for every timed statement, so that its backend's CPU time is the statements'.
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const [{ pid }] = (await runner.query(`SELECT pg_backend_pid() AS pid`)) as { pid: number }[];
  // No webhook is asked for: the outbox is empty, and its jobs are not the bench's subject.
  // The webhooks context's fan-out, which the lifecycle's statements include; a checkout from before
  // it was handed to the lifecycle (no fan-out.sql.ts) ignores it.
  const fanOutFile = join(root, 'src', 'webhooks', 'events', 'fan-out.sql.ts');
  const fanOut = existsSync(fanOutFile) ? load(fanOutFile).MESSAGE_FAN_OUT : undefined;
  const lifecycle = new MessageLifecycle(
    { enqueue: async () => {} } as never,
    fanOut as never,
  ) as unknown as Checkout['lifecycle'];
  return {
    label,
    dataSource,
    runner,
    backendPid: pid,
    lifecycle,
    claimedColumns: load('./src/delivery/delivery.repository').CLAIMED_COLUMNS as object,
    storeMessages: load('./test/support/factories').storeMessages as Checkout['storeMessages'],
  };
}

/** The backend's CPU time so far, in ms (/proc/<pid>/schedstat: ns on a CPU); undefined when the server is elsewhere. */
function cpuMsOf(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/** Runs `work` on every message of a batch, in a transaction of the checkout's connection; the sample is `work`'s alone, per message. */
async function timed(
  checkout: Checkout,
  messages: number,
  work: (manager: EntityManager) => Promise<{ moved: unknown[] }>,
): Promise<Sample> {
  const { runner, backendPid } = checkout;
  await runner.startTransaction();
  const cpuBefore = cpuMsOf(backendPid);
  const started = performance.now();
  const { moved } = await work(runner.manager);
  const wallMs = performance.now() - started;
  const cpuAfter = cpuMsOf(backendPid);
  await runner.commitTransaction();
  // A statement that moved nothing would be timed doing nothing.
  if (moved.length !== messages) throw new Error(`${checkout.label}: ${moved.length} of ${messages} moved`);
  return {
    wallMs: wallMs / messages,
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / messages,
  };
}

const claimsOf = (ids: string[]) => ids.map((messageId) => ({ messageId, attempt: 1 }));
/** Every recipient sent, as DeliveryRecorder records a delivery the relay took whole. */
const outcomesOf = (ids: string[], recipients: string[]) =>
  ids.map((messageId) => ({
    messageId,
    attempt: 1,
    status: 'sent',
    detail: REPLY,
    fates: recipients.map((key, position) => ({ position, key, status: 'sent', detail: REPLY })),
  }));

/** One round of a variant on a checkout: new messages, claimed then finished a batch at a time. */
async function round(checkout: Checkout, recipients: string[], count: number, batch: number) {
  const fields = Array.from({ length: count }, () => ({ recipients }));
  const ids = (await checkout.storeMessages(checkout.dataSource, `bench-${checkout.label}`, fields)).map((m) => m.id);
  await checkout.dataSource.query(`ANALYZE messages`);
  const batches = Array.from({ length: Math.ceil(count / batch) }, (_, i) => ids.slice(i * batch, (i + 1) * batch));
  const samples: Record<Statement, Sample[]> = { claim: [], finish: [] };
  for (const b of batches)
    samples.claim.push(
      await timed(checkout, b.length, (m) => checkout.lifecycle.claim(m, claimsOf(b), checkout.claimedColumns)),
    );
  for (const b of batches)
    samples.finish.push(
      await timed(checkout, b.length, (m) => checkout.lifecycle.finish(m, outcomesOf(b, recipients))),
    );
  // A round's figure: the mean of its batches, per message.
  const total = (s: Sample[], key: keyof Sample) =>
    s.some((x) => x[key] === undefined) ? undefined : s.reduce((sum, x) => sum + x[key]!, 0) / s.length;
  return Object.fromEntries(
    STATEMENTS.map((st) => [st, { wallMs: total(samples[st], 'wallMs')!, cpuMs: total(samples[st], 'cpuMs') }]),
  ) as Record<Statement, Sample>;
}

/** EXPLAIN (ANALYZE, BUFFERS) of one batch's claim and finish, rolled back. */
async function explain(checkout: Checkout, recipients: string[], count: number, batch: number): Promise<void> {
  // Among `count` messages, with statistics, for the plans of a table that is not tiny.
  const fields = Array.from({ length: count }, () => ({ recipients }));
  const stored = await checkout.storeMessages(checkout.dataSource, `bench-${checkout.label}`, fields);
  await checkout.dataSource.query(`ANALYZE messages`);
  const ids = stored.slice(0, batch).map((m) => m.id);
  const { runner } = checkout;
  // The lifecycle's statements as they are, each run under EXPLAIN; it reads no row back.
  const explaining = Object.create(runner.manager, {
    query: {
      value: async (sql: string, parameters: unknown[]) => {
        const plan = (await runner.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, parameters)) as Record<string, string>[];
        console.log(plan.map((row) => Object.values(row)[0]).join('\n'));
        return [];
      },
    },
  }) as EntityManager;
  await runner.startTransaction();
  try {
    console.log(`\n### ${checkout.label}, ${recipients.length} recipient(s): claim of ${batch}`);
    await checkout.lifecycle.claim(explaining, claimsOf(ids), checkout.claimedColumns);
    // The finish needs the messages sending: claimed for real, in the same transaction.
    await checkout.lifecycle.claim(runner.manager, claimsOf(ids), checkout.claimedColumns);
    console.log(`\n### ${checkout.label}, ${recipients.length} recipient(s): finish of ${batch}`);
    await checkout.lifecycle.finish(explaining, outcomesOf(ids, recipients));
  } finally {
    await runner.rollbackTransaction();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      compare: { type: 'string' },
      unnamed: { type: 'boolean', default: false },
      messages: { type: 'string', default: '1000' },
      batch: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '5' },
      explain: { type: 'boolean', default: false },
    },
  });
  const [count, batch, rounds] = [Number(values.messages), Number(values.batch), Number(values.rounds)];
  const database = await benchDatabase();
  const urls: string[] = [];
  const checkouts: Checkout[] = [];
  try {
    type Root = [label: string, root: string, poolMode: 'session' | 'transaction'];
    const roots: Root[] = values.unnamed
      ? [
          ['named', ROOT, 'session'],
          ['unnamed', ROOT, 'transaction'],
        ]
      : [...(values.compare ? [['base', resolve(values.compare), 'session'] as Root] : []), ['this', ROOT, 'session']];
    for (const [label, root, poolMode] of roots) {
      const url = urls.length === 0 ? database.url : await database.another();
      urls.push(url);
      checkouts.push(await openCheckout(root, label, url, poolMode));
    }
    if (values.explain) {
      for (const checkout of checkouts) for (const v of VARIANTS) await explain(checkout, v.recipients, count, batch);
      return;
    }
    const results = new Map<string, Record<Statement, Sample>[]>();
    for (let r = 0; r < rounds; r++) {
      // Alternating, and in turn first, so that neither always runs on the warmer server.
      const order = r % 2 ? [...checkouts].reverse() : checkouts;
      for (const v of VARIANTS)
        for (const checkout of order) {
          const key = `${checkout.label}\t${v.name}`;
          results.set(key, [...(results.get(key) ?? []), await round(checkout, v.recipients, count, batch)]);
        }
    }
    console.log(`${rounds} rounds of ${count} messages, batches of ${batch}; medians, per message`);
    console.log(['checkout', 'variant', ...STATEMENTS.flatMap((s) => [`${s} wall ms`, `${s} CPU ms`])].join('\t'));
    for (const [key, samples] of results) {
      const cells = STATEMENTS.flatMap((s) => {
        const cpu = samples.map((x) => x[s].cpuMs);
        return [
          median(samples.map((x) => x[s].wallMs)).toFixed(3),
          cpu.every((c) => c !== undefined) ? median(cpu).toFixed(3) : 'n/a',
        ];
      });
      console.log([key, ...cells].join('\t'));
    }
  } finally {
    for (const checkout of checkouts) {
      await checkout.runner.release();
      await checkout.dataSource.destroy();
    }
    if (process.env.DATABASE_URL) await dropDatabases(urls);
    await database.close();
  }
}

if (require.main === module) runBench(main);
