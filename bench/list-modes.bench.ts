// `npm run bench -- --only list-modes`: what DATABASE_POOL_MODE=transaction costs the list. The
// list cases of list.bench.ts on the seeded million-message user, asked for in turns of three
// API processes on the same database: session mode (named prepared statements, planned per run
// with plan_cache_mode=force_custom_plan), transaction mode on the server directly (the same
// statements unnamed: parsed and planned on every run), and transaction mode through a real
// PgBouncer in pool_mode=transaction (when /usr/sbin/pgbouncer is installed). Medians of `runs`
// after WARM_UP_RUNS unmeasured turns; the ratios are to session mode.
import { PgBouncer, pgbouncerMissing } from '../test/support/pgbouncer';
import { LIST_CASES, ListOptions, onListDatabase, timeEndpoint, WARM_UP_RUNS } from './list.bench';
import { POOLER_SERVER_CONNECTIONS } from './pooler.bench';
import { BENCH_JWT_SECRET, median, MailroomProcess, own, startMailroomProcess } from './support';

export const LIST_MODES_HEADER = [
  'list case',
  'transaction mode, direct (unnamed)',
  'session mode (named)',
  'ratio',
  'through PgBouncer (transaction)',
  'ratio',
];

export async function listModesBench({ runs }: ListOptions): Promise<{ rows: string[][]; header: string[] }> {
  const missing = pgbouncerMissing();
  if (missing) console.log(`list-modes: the PgBouncer column skipped, ${missing}`);
  return onListDatabase(async (sessionPort, authorization, _client, url) => {
    const env = { JWT_SECRET: BENCH_JWT_SECRET, RATE_LIMIT_PER_MINUTE: '100000000', DATABASE_POOL_MODE: 'transaction' };
    const started: MailroomProcess[] = [];
    const bouncer = missing ? undefined : new PgBouncer(url, POOLER_SERVER_CONNECTIONS);
    const stopBouncer = bouncer ? own(() => bouncer.stop()) : undefined;
    try {
      const unnamed = await startMailroomProcess(url, { role: 'api', env });
      started.push(unnamed);
      let pooled: MailroomProcess | undefined;
      if (bouncer) {
        await bouncer.start();
        pooled = await startMailroomProcess(bouncer.url(new URL(url).pathname.slice(1)), { role: 'api', env });
        started.push(pooled);
      }
      const ports = [unnamed.port, sessionPort, pooled?.port];
      const rows: string[][] = [];
      for (const c of LIST_CASES) {
        const times: number[][] = [[], [], []];
        for (let i = 0; i < WARM_UP_RUNS + runs; i++) {
          // Each process first in turn, so that none always follows the same one.
          const turn = [NaN, NaN, NaN];
          for (let k = 0; k < 3; k++) {
            const at = (i + k) % 3;
            if (ports[at] !== undefined) turn[at] = await timeEndpoint(ports[at], authorization, c.query);
          }
          if (i >= WARM_UP_RUNS) turn.forEach((t, k) => times[k].push(t));
        }
        const [t, s, p] = times.map(median);
        rows.push([
          c.name,
          `${t.toFixed(1)} ms`,
          `${s.toFixed(1)} ms`,
          `${(t / s).toFixed(2)}×`,
          pooled ? `${p.toFixed(1)} ms` : 'skipped',
          pooled ? `${(p / s).toFixed(2)}×` : '—',
        ]);
      }
      return { rows, header: LIST_MODES_HEADER };
    } finally {
      for (const p of started.reverse()) await p.stop();
      await stopBouncer?.();
    }
  });
}
