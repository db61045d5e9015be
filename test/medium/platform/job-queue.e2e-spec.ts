// The queue's writes belong to the caller's transaction (src/platform/queue/job-queue.ts): a job is
// completed exactly when the change that finished it commits, or a worker killed between the two
// leaves a message that no job will ever deliver.
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { JobQueue } from '../../../src/platform/queue/job-queue';
import { bootTestApp, TestApp } from '../../support/test-app';

let t: TestApp;
let queue: JobQueue;

beforeAll(async () => {
  // ROLE=api: no worker takes the job this test fetches itself.
  t = await bootTestApp({}, { isolatedDatabase: true });
  queue = t.app.get(JobQueue);
});
afterAll(() => t?.close());

async function stateOf(id: string): Promise<{ state: string; output: unknown }> {
  const [job] = await t.db.query(`SELECT state, output FROM pgboss.job WHERE id = $1`, [id]);
  return job;
}

async function activeJob(): Promise<string> {
  await t.db.transaction((manager) =>
    queue.insert(manager, DELIVERY_QUEUE, [{ data: { messageId: 'none', attempt: 1 } }]),
  );
  const [job] = await queue.fetch(DELIVERY_QUEUE, 1);
  expect(await stateOf(job.id)).toEqual({ state: 'active', output: null });
  return job.id;
}

it('completes a job only when the transaction that completes it commits', async () => {
  const rolledBack = await activeJob();
  const failure = new Error('the rest of the transaction failed');
  await expect(
    t.db.transaction(async (manager) => {
      await queue.complete(manager, DELIVERY_QUEUE, [rolledBack]);
      throw failure;
    }),
  ).rejects.toBe(failure);
  expect(await stateOf(rolledBack)).toEqual({ state: 'active', output: null });

  const committed = await activeJob();
  await t.db.transaction((manager) => queue.complete(manager, DELIVERY_QUEUE, [committed]));
  expect(await stateOf(committed)).toEqual({ state: 'completed', output: null });
});

it('renews the lease of a job its fetch still holds, and not once the job was handed out again', async () => {
  await t.db.transaction((manager) =>
    queue.insert(manager, DELIVERY_QUEUE, [{ data: { messageId: 'none', attempt: 1 } }]),
  );
  const [held] = await queue.fetch(DELIVERY_QUEUE, 1);
  expect(held.retryCount).toBe(0);
  // The lease began a minute ago: renewal starts it again from now.
  await t.db.query(`UPDATE pgboss.job SET started_on = now() - interval '1 minute' WHERE id = $1`, [held.id]);
  expect(await queue.renewLeases(DELIVERY_QUEUE, [held])).toEqual([held.id]);
  const [{ age }] = await t.db.query(
    `SELECT extract(epoch FROM now() - started_on) AS age FROM pgboss.job WHERE id = $1`,
    [held.id],
  );
  expect(Number(age)).toBeLessThan(5);

  // The lease ran out (as pg-boss's maintenance leaves it) and another fetch took the job.
  await t.db.query(`UPDATE pgboss.job SET state = 'retry', start_after = now() WHERE id = $1`, [held.id]);
  const [again] = await queue.fetch(DELIVERY_QUEUE, 1);
  expect({ id: again.id, retryCount: again.retryCount }).toEqual({ id: held.id, retryCount: 1 });
  expect(await queue.renewLeases(DELIVERY_QUEUE, [held])).toEqual([]);
  expect(await queue.renewLeases(DELIVERY_QUEUE, [again])).toEqual([held.id]);
});

it("fetches a backlog through the queue's fetch index, in its order, even when the statistics say nothing waits", async () => {
  const [{ partition }] = await t.db.query(`SELECT partition_name AS partition FROM pgboss.queue WHERE name = $1`, [
    DELIVERY_QUEUE,
  ]);
  // Statistics taken while nothing waited (as autovacuum last saw an idle queue), then a backlog:
  // the planner, expecting a few waiting jobs, would sort them all (pg-boss's start-time index).
  await t.db.query(`ANALYZE pgboss.${partition}`);
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
  const scans = async () =>
    new Map<string, number>(
      (
        await t.db.query(
          `SELECT indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes WHERE relname = $1`,
          [partition],
        )
      ).map((row: { name: string; scans: string }) => [row.name, Number(row.scans)]),
    );
  // The queue's order: priority, then age, then id (one transaction's jobs are all of an age).
  const next: { messageId: string }[] = await t.db.query(
    `SELECT data->>'messageId' AS "messageId" FROM pgboss.job WHERE name = $1 AND state = 'created'
     ORDER BY priority DESC, created_on, id LIMIT 8`,
    [DELIVERY_QUEUE],
  );
  expect(next.every(({ messageId }) => Number(messageId.split('-')[1]) % 100 === 50)).toBe(true);
  const before = await scans();

  const fetched = await queue.fetch<{ messageId: string }>(DELIVERY_QUEUE, 8);
  expect(fetched.map((job) => job.data.messageId)).toEqual(next.map((row) => row.messageId));
  // A backend reports its index scans within a second or so of its transaction: wait for them.
  const grown = (after: Map<string, number>) => [...after].filter(([name, n]) => n > (before.get(name) ?? 0));
  const deadline = Date.now() + 30_000;
  let changed = grown(await scans());
  while (changed.length === 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    changed = grown(await scans());
  }
  // Its index in order (the pkey finds the rows to update), not pg-boss's by start time (_i5).
  const names = changed.map(([name]) => name);
  expect(names.filter((name) => !name.endsWith('_pkey'))).toEqual([
    expect.stringMatching(/_name_priority_created_on_id_idx$/),
  ]);
});
