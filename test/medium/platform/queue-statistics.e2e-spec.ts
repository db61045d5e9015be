// A queue's statistics are renewed once its fetches find a backlog (src/platform/queue/job-queue.ts,
// renewStatistics): taken while nothing waited, they led the planner to sort every waiting job at
// each fetch. A file of its own: a process renews a queue's statistics at most every 10 s, and no
// fetch may come before this one.
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { JobQueue } from '../../../src/platform/queue/job-queue';
import { bootTestApp, TestApp } from '../../support/test-app';

let t: TestApp;
let queue: JobQueue;

beforeAll(async () => {
  // ROLE=api: no worker fetches from the queue.
  t = await bootTestApp({}, { isolatedDatabase: true });
  queue = t.app.get(JobQueue);
});
afterAll(() => t?.close());

it("renews a queue's statistics once its fetch finds a backlog, and then fetches it in the queue's order through its fetch index", async () => {
  const [{ partition }] = await t.db.query(`SELECT partition_name AS partition FROM pgboss.queue WHERE name = $1`, [
    DELIVERY_QUEUE,
  ]);
  // Statistics taken while nothing waited (as autovacuum last saw an idle queue), then a backlog:
  // a planner expecting a few waiting jobs may sort them all (through pg-boss's start-time index).
  await t.db.query(`ANALYZE pgboss.${partition}`);
  const analyses = async () =>
    Number(
      (
        await t.db.query(`SELECT analyze_count AS n FROM pg_stat_user_tables WHERE relid = $1::regclass`, [
          `pgboss.${partition}`,
        ])
      )[0].n,
    );
  // The test's own ANALYZE is reported within a second or so: wait for it before counting.
  const deadline = Date.now() + 20_000;
  let before = await analyses();
  while (before === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    before = await analyses();
  }
  await t.db.transaction((manager) =>
    queue.insert(
      manager,
      DELIVERY_QUEUE,
      Array.from({ length: 3000 }, (_, i) => ({
        data: { messageId: `backlog-${i}`, attempt: 1 },
        priority: i % 100 === 50 ? 10 : 0,
      })),
    ),
  );
  const plan = async () =>
    (
      await t.db.query(
        `EXPLAIN SELECT id FROM pgboss.job WHERE name = $1 AND state < 'active' AND start_after < now()
         ORDER BY priority DESC, created_on, id LIMIT 8 FOR UPDATE SKIP LOCKED`,
        [DELIVERY_QUEUE],
      )
    )
      .map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN'])
      .join('\n');
  // The queue's order: priority, then age, then id (one transaction's jobs are all of an age).
  const next: { messageId: string }[] = await t.db.query(
    `SELECT data->>'messageId' AS "messageId" FROM pgboss.job WHERE name = $1 AND state = 'created'
     ORDER BY priority DESC, created_on, id LIMIT 8`,
    [DELIVERY_QUEUE],
  );
  expect(next.every(({ messageId }) => Number(messageId.split('-')[1]) % 100 === 50)).toBe(true);

  const fetched = await queue.fetch<{ messageId: string }>(DELIVERY_QUEUE, 8);
  expect(fetched.map((job) => job.data.messageId)).toEqual(next.map((row) => row.messageId));
  // A full batch: the queue's table is analyzed (in the background; waited for, not slept on).
  let after = await analyses();
  while (after === before && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    after = await analyses();
  }
  expect(after).toBe(before + 1);
  expect(await plan()).toMatch(/Index Scan using \S+_name_priority_created_on_id_idx/);
  expect(await plan()).not.toMatch(/Sort/);
});
