// The fakes JobLoop's specs run against (src/platform/queue/job-loop*.spec.ts): a queue holding
// numbered jobs, jobs that run until the test ends them, a clock the test moves.
import { automock } from '../automock';
import { QueueJob } from '../../../src/platform/queue/job-queue';
import { NamedQueue } from '../../../src/platform/queue/named-queue';

export type Job = QueueJob<{ n: number }>;

/** A queue holding `count` jobs, and the sizes the loop asked it for. */
export function queueOf(count: number) {
  const waiting: Job[] = Array.from({ length: count }, (_, i) => ({ id: `job-${i}`, data: { n: i } }));
  const queue = automock<NamedQueue<{ n: number }>>('NamedQueue');
  const fetches: number[] = [];
  Object.defineProperty(queue, 'name', { value: 'test-queue' });
  queue.onWork.mockReturnValue(() => true);
  queue.fetch.mockImplementation((n) => {
    fetches.push(n);
    return Promise.resolve(waiting.splice(0, n));
  });
  queue.fail.mockResolvedValue();
  return { queue, fetches };
}

/** Jobs that run until the test ends them. */
export function heldJobs() {
  const running = new Map<string, () => void>();
  const run = (work: { job: Job }) => new Promise<void>((resolve) => running.set(work.job.id, resolve));
  const endAll = () => {
    for (const [id, end] of running) {
      running.delete(id);
      end();
    }
  };
  return { running, run, endAll };
}

/** heldJobs whose run also notes each job started, with performance.now() at `clock.now`. */
export function heldJobsOnAClock() {
  const held = heldJobs();
  const started: string[] = [];
  const clock = { now: 0 };
  jest.spyOn(performance, 'now').mockImplementation(() => clock.now);
  const run = (work: { job: Job }) => (started.push(work.job.id), held.run(work));
  return { jobs: { ...held, run }, started, clock };
}

/** Each fetched job as the work to run. */
export const asWork = (jobs: Job[]) => Promise.resolve(jobs.map((job) => ({ job })));

export const until = async (condition: () => boolean, withinMs = 1000) => {
  const deadline = Date.now() + withinMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

/** Stops the loop while ending every job it starts meanwhile (its stock drains at stop). */
export async function stopEndingAll(loop: { stop(): Promise<void> }, jobs: { endAll(): void }): Promise<void> {
  const stopped = loop.stop();
  for (let i = 0; i < 10; i++) {
    jobs.endAll();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await stopped;
}
