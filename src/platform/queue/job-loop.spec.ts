import { Logger } from '@nestjs/common';
import {
  asWork,
  heldJobs,
  heldJobsOnAClock,
  queueOf,
  stopEndingAll,
  until,
} from '../../../test/support/queue/job-loop-fixtures';
import { JobLoop } from './job-loop';

describe(JobLoop.name, () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('without a stock, fetches exactly for its free slots, and again the moment one frees', async () => {
    const { queue, fetches } = queueOf(10);
    const jobs = heldJobs();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 3, drainDeadlineMs: 1000 },
      { prepare: asWork, run: jobs.run },
    );

    sut.start();
    await until(() => jobs.running.size === 3);
    expect(fetches).toEqual([3]);
    jobs.running.get('job-0')!();
    jobs.running.delete('job-0');
    await until(() => jobs.running.size === 3 && fetches.length === 2);
    expect(fetches).toEqual([3, 1]);
    const stopped = sut.stop();
    jobs.endAll();
    await stopped;
  });

  it('starts the next job when one frees its slot, with at most `extraInFlight` jobs beyond the slots in flight, and drains them at stop', async () => {
    const { queue, fetches } = queueOf(10);
    const jobs = heldJobs();
    const freeSlots = new Map<string, () => void>();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 2, extraInFlight: 1, drainDeadlineMs: 1000 },
      { prepare: asWork, run: (work, freeSlot) => (freeSlots.set(work.job.id, freeSlot), jobs.run(work)) },
    );

    sut.start();
    await until(() => jobs.running.size === 2);
    // job-0 frees its slot but has not ended: job-2 takes the slot (3 in flight, the most).
    freeSlots.get('job-0')!();
    await until(() => jobs.running.has('job-2'));
    expect([...jobs.running.keys()]).toEqual(['job-0', 'job-1', 'job-2']);
    // job-1 frees its slot too (twice: the second call changes nothing), but 3 are in flight:
    // nothing is fetched or started until a job ends. The loop answers a freed slot within the
    // same turn, so a turn later it has.
    freeSlots.get('job-1')!();
    freeSlots.get('job-1')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(fetches).toEqual([2, 1]);
    expect(jobs.running.has('job-3')).toBe(false);
    jobs.running.get('job-0')!();
    jobs.running.delete('job-0');
    await until(() => jobs.running.has('job-3'));
    expect([...jobs.running.keys()]).toEqual(['job-1', 'job-2', 'job-3']);
    // Without a stock it fetched one job for each start, none that could not start.
    expect(fetches).toEqual([2, 1, 1]);
    // A stop waits for the job out of its slot (job-1) as for the others.
    let drained = false;
    const stopping = sut.stop().then(() => (drained = true));
    for (const id of ['job-2', 'job-3']) {
      jobs.running.get(id)!();
      jobs.running.delete(id);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    jobs.endAll();
    await stopping;
    expect(drained).toBe(true);
  });

  it('frees a slot once however often a job frees it, and gives a job that failed after freeing it back to the queue', async () => {
    const { queue } = queueOf(10);
    const jobs = heldJobs();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 1, extraInFlight: 1, drainDeadlineMs: 1000 },
      {
        prepare: asWork,
        run: (work, freeSlot) => {
          if (work.job.id !== 'job-0') return jobs.run(work);
          freeSlot();
          freeSlot();
          return Promise.reject(new Error('the write failed'));
        },
      },
    );

    sut.start();
    await until(() => jobs.running.has('job-1') && queue.fail.mock.calls.length === 1);
    expect(queue.fail).toHaveBeenCalledWith('job-0', expect.any(Error));
    // job-1 holds the one slot: had job-0's second call freed another, job-2 would run beside it.
    await new Promise((resolve) => setImmediate(resolve));
    expect([...jobs.running.keys()]).toEqual(['job-1']);
    const stopped = sut.stop();
    jobs.endAll();
    await stopped;
  });

  it('with a stock, fetches a batch when it is half empty, and readies each batch at once', async () => {
    const { queue, fetches } = queueOf(100);
    const jobs = heldJobs();
    const batches: number[] = [];
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 2, drainDeadlineMs: 1000, stock: 4 },
      {
        prepare: (js) => {
          batches.push(js.length);
          return asWork(js);
        },
        run: jobs.run,
      },
    );

    sut.start();
    // 4 fetched, 2 started, 2 left: half full, so 2 more; then full while both slots are busy.
    await until(() => fetches.length === 2);
    expect(fetches).toEqual([4, 2]);
    expect(batches).toEqual([4, 2]);
    expect(jobs.running.size).toBe(2);
    // One slot frees: one job starts from the stock (3 left, over half), so no fetch yet.
    jobs.running.get('job-0')!();
    jobs.running.delete('job-0');
    await until(() => jobs.running.has('job-2'));
    expect(fetches).toEqual([4, 2]);
    // Another: 2 left, half full again, so the stock is topped up to 4.
    jobs.running.get('job-1')!();
    jobs.running.delete('job-1');
    await until(() => fetches.length === 3);
    expect(fetches).toEqual([4, 2, 2]);
    await stopEndingAll(sut, jobs);
  });

  it('starts a readied job in a slot freed or left while a refill is under way, after the freeing code has run, without waiting for the refill', async () => {
    const { queue } = queueOf(0);
    const jobs = heldJobs();
    const freeSlots = new Map<string, () => void>();
    const order: string[] = [];
    let endFetch = () => {};
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 1, extraInFlight: 1, drainDeadlineMs: 1000, stock: 4 },
      {
        prepare: asWork,
        run: (work, freeSlot) => (
          order.push(`start ${work.job.id}`),
          freeSlots.set(work.job.id, freeSlot),
          jobs.run(work)
        ),
      },
    );
    // The first fetch brings job-0 (run), job-1 and job-2 (in stock, half full); the refill after it hangs.
    queue.fetch.mockImplementationOnce(() => Promise.resolve([0, 1, 2].map((n) => ({ id: `job-${n}`, data: { n } }))));
    queue.fetch.mockImplementationOnce(() => new Promise((resolve) => (endFetch = () => resolve([]))));

    sut.start();
    await until(() => jobs.running.has('job-0') && queue.fetch.mock.calls.length === 2);
    // job-0 frees its slot (a delivery at the mail server's reply), then goes on (its record):
    // job-1 takes the slot after that, while the refill still hangs.
    freeSlots.get('job-0')!();
    order.push('job-0 goes on');
    await until(() => jobs.running.has('job-1'));
    expect(order).toEqual(['start job-0', 'job-0 goes on', 'start job-1']);
    // job-1 frees its slot with two in flight (the most): nothing starts until job-0 ends.
    freeSlots.get('job-1')!();
    await new Promise((resolve) => setImmediate(resolve));
    expect(jobs.running.has('job-2')).toBe(false);
    jobs.running.get('job-0')!();
    jobs.running.delete('job-0');
    await until(() => jobs.running.has('job-2'));
    expect(queue.fetch.mock.calls).toHaveLength(2);
    endFetch();
    await stopEndingAll(sut, jobs);
  });

  it('starts the lease of a job that waited in stock past its age limit again, runs it if it still held it, and keeps no stock while jobs run that slowly', async () => {
    const { queue, fetches } = queueOf(6);
    // job-2 outlived its lease meanwhile: the queue has taken it back.
    queue.renewLeases.mockImplementation((held) =>
      Promise.resolve(held.map((job) => job.id).filter((id) => id !== 'job-2')),
    );
    const { jobs, started, clock } = heldJobsOnAClock();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 1, drainDeadlineMs: 1000, stock: 2, stockMaxAgeMs: 500 },
      { prepare: asWork, run: jobs.run },
    );

    sut.start();
    // job-0 runs; job-1 and job-2 wait in stock, fetched at 0 ms.
    await until(() => started.length === 1 && queue.fetch.mock.calls.length === 2);
    clock.now = 501;
    jobs.running.get('job-0')!();
    jobs.running.delete('job-0');
    // job-1 is renewed and runs; job-2 is not, so it is left to the queue.
    await until(() => started.length === 2);
    expect(started).toEqual(['job-0', 'job-1']);
    expect(queue.renewLeases.mock.calls).toContainEqual([[expect.objectContaining({ id: 'job-1' })]]);
    clock.now = 1002;
    jobs.running.get('job-1')!();
    jobs.running.delete('job-1');
    await until(() => started.length === 3);
    expect(queue.renewLeases.mock.calls).toContainEqual([[expect.objectContaining({ id: 'job-2' })]]);
    expect(started).toEqual(['job-0', 'job-1', 'job-3']);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 'job-2' }),
      expect.stringContaining('left to the queue'),
    );
    // Jobs run 500 ms and more, so a stocked one would wait longer than 500: fetches are for free slots only.
    expect(fetches.slice(2)).toEqual([1]);
    await stopEndingAll(sut, jobs);
  });

  it('keeps no more in stock than its slots can run within the drain deadline', async () => {
    const { queue, fetches } = queueOf(8);
    const { jobs, started, clock } = heldJobsOnAClock();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 1, drainDeadlineMs: 1000, stock: 4 },
      { prepare: asWork, run: jobs.run },
    );

    sut.start();
    // Before any job has run, a full stock: job-0 runs, job-1 to job-3 wait.
    await until(() => started.length === 1);
    expect(fetches).toEqual([4]);
    // Jobs take 600 ms: two in stock would not run within the 1 s a stop gives them.
    for (let i = 1; i <= 4; i++) {
      clock.now += 600;
      jobs.endAll();
      await until(() => started.length === i + 1);
    }
    expect(started).toEqual(['job-0', 'job-1', 'job-2', 'job-3', 'job-4']);
    expect(fetches).toEqual([4, 1]);
    const stopped = sut.stop();
    jobs.endAll();
    await stopped;
  });

  it('gives a job whose handler throws back to the queue, and keeps running', async () => {
    const { queue } = queueOf(2);
    const failure = new Error('the database went away');
    const ran: string[] = [];
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 1, drainDeadlineMs: 1000 },
      {
        prepare: asWork,
        run: ({ job }) => {
          ran.push(job.id);
          return job.id === 'job-0' ? Promise.reject(failure) : Promise.resolve();
        },
      },
    );

    sut.start();
    await until(() => ran.length === 2);
    await until(() => queue.fail.mock.calls.length === 1);
    expect(queue.fail.mock.calls).toEqual([['job-0', failure]]);
    await sut.stop();
  });

  it('at stop, fetches no more and runs what it holds (in flight and in stock) to the end', async () => {
    const { queue, fetches } = queueOf(100);
    const jobs = heldJobs();
    const ran: string[] = [];
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 2, drainDeadlineMs: 5000, stock: 4 },
      { prepare: asWork, run: (work) => (ran.push(work.job.id), jobs.run(work)) },
    );
    sut.start();
    await until(() => fetches.length === 2);

    let stopped = false;
    const stopping = sut.stop().then(() => (stopped = true));
    while (!stopped) {
      jobs.endAll();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await stopping;
    expect(fetches).toEqual([4, 2]);
    expect(ran).toEqual(['job-0', 'job-1', 'job-2', 'job-3', 'job-4', 'job-5']);
  });

  it('at stop, waits no longer than its deadline, and says how many jobs it left to their lease', async () => {
    const { queue } = queueOf(3);
    const jobs = heldJobs();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 3, drainDeadlineMs: 50 },
      { prepare: asWork, run: jobs.run },
    );
    sut.start();
    await until(() => jobs.running.size === 3);

    await sut.stop();

    expect(warn).toHaveBeenCalledWith('3 test-queue jobs unfinished at shutdown; they return after their lease');
    jobs.endAll();
  });

  it('wakes from its idle sleep when new work is committed in this process', async () => {
    const { queue, fetches } = queueOf(0);
    let wake = () => {};
    queue.onWork.mockImplementation((listener) => {
      wake = listener;
      return () => true;
    });
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 1, drainDeadlineMs: 1000 },
      { prepare: asWork, run: () => Promise.resolve() },
    );
    sut.start();
    await until(() => fetches.length === 1);

    wake();
    // Well within the 250 ms idle poll.
    await until(() => fetches.length === 2, 100);
    await sut.stop();
  });
});
