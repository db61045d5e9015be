// The queue's writes belong to the caller's transaction (src/queue/job-queue.ts): a job is
// completed exactly when the change that finished it commits, or a worker killed between the two
// leaves a message that no job will ever deliver.
import { DELIVERY_QUEUE } from '../src/queue/delivery-queue';
import { JobQueue } from '../src/queue/job-queue';
import { bootTestApp, TestApp } from './support/test-app';

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
  await t.db.transaction((manager) => queue.insert(manager, DELIVERY_QUEUE, [{ data: { messageId: 'none', attempt: 1 } }]));
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
