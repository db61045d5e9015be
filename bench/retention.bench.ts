// node -r ts-node/register/transpile-only bench/retention.bench.ts [--days 90]
// The purge rate of MESSAGE_RETENTION_DAYS on the seeded list database (npm run bench:seed: a
// year of messages up to 2026-11-21), and the latency of the list while it runs: first-page lists
// of the seeded user, one after another, before the purge and during it. It deletes the `--days`
// oldest days for good: seed again before the list benchmark.
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { createApp } from '../src/app.setup';
import { AppConfig } from '../src/platform/config/app-config';
import { MessageRetention, PURGE_BATCH } from '../src/messages/message-retention';
import { BENCH_USER, benchListDatabase } from './list-database';
import { BENCH_JWT_SECRET, benchBearer, median } from './support';

const SEEDED_UNTIL = Date.parse('2026-11-21T00:00:00Z');
const DAY_MS = 86_400_000;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { days: { type: 'string', default: '90' } } });
  const database = await benchListDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-retention-bench-'));
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'production',
    ROLE: 'api',
    LOG_LEVEL: 'warn',
    DATABASE_URL: database.url,
    JWT_SECRET: BENCH_JWT_SECRET,
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: '100000000',
    MESSAGE_RETENTION_DAYS: '1',
  });
  // Whatever happens, everything started here stops: the application, then the embedded server.
  const app = await createApp(config).catch(async (error) => {
    await database.close();
    throw error;
  });
  try {
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const authorization = benchBearer(BENCH_USER);
    const list = async () => {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${port}/user/messages`, { headers: { authorization } });
      if (!response.ok) throw new Error(`list answered ${response.status}`);
      await response.json();
      return performance.now() - started;
    };

    const firstDay = await app.get(DataSource).query(`SELECT min(sent_at) AS first, count(*)::int AS n FROM messages`);
    const before = new Date(Date.parse(firstDay[0].first.toISOString().slice(0, 10)) + Number(values.days) * DAY_MS);
    if (before.getTime() > SEEDED_UNTIL) throw new Error('--days reaches past the seeded year');
    console.log(
      `${firstDay[0].n} messages from ${firstDay[0].first.toISOString()}; purging those sent before ${before.toISOString()}`,
    );

    const idle: number[] = [];
    for (let i = 0; i < 300; i++) {
      const ms = await list();
      // The first hundred warm caches, connections and prepared statements.
      if (i >= 100) idle.push(ms);
    }

    const retention = app.get(MessageRetention);
    const during: number[] = [];
    const batches: number[] = [];
    let purged = 0;
    let done = false;
    const listing = (async () => {
      while (!done) during.push(await list());
    })();
    const started = performance.now();
    try {
      let from: Date | undefined;
      for (let n = PURGE_BATCH; n === PURGE_BATCH; purged += n) {
        const t0 = performance.now();
        ({ deleted: n, last: from } = await retention.purgeBatch(before, from));
        batches.push(performance.now() - t0);
      }
    } finally {
      done = true;
      await listing;
    }
    const seconds = (performance.now() - started) / 1000;
    console.log(`purged ${purged} messages in ${seconds.toFixed(1)} s: ${(purged / seconds).toFixed(0)} messages/s`);
    console.log(
      `transaction of ${PURGE_BATCH}: median ${median(batches).toFixed(1)} ms, p99 ${percentile(batches, 0.99).toFixed(1)} ms, max ${Math.max(...batches).toFixed(1)} ms`,
    );
    console.log(
      `list, first page: idle median ${median(idle).toFixed(1)} ms, p99 ${percentile(idle, 0.99).toFixed(1)} ms (${idle.length} runs)`,
    );
    console.log(
      `list, first page: during the purge median ${median(during).toFixed(1)} ms, p99 ${percentile(during, 0.99).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms (${during.length} runs)`,
    );
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
