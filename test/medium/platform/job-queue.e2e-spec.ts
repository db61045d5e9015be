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
