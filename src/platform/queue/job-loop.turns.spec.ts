// JobLoop's fair turns (a full key's jobs put back at its pace) and the slots it shares with
// another loop (slotsNow, backlogged, slotsHeldLongerThan: docs/scaling.md#mail-first).
import { Logger } from '@nestjs/common';
import {
  asWork,
  heldJobs,
  heldJobsOnAClock,
  Job,
  queueOf,
  stopEndingAll,
  until,
} from '../../../test/support/queue/job-loop-fixtures';
import { JobLoop } from './job-loop';

describe(`${JobLoop.name}: turns and shared slots`, () => {
  beforeEach(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('puts back the jobs whose turn key is full, unstarted, and fetches on to run the next key in line', async () => {
    // Jobs 0-3 are user a's, 4 is user b's: a may hold 2 at once.
    const { queue, fetches } = queueOf(5);
    const putBack: string[][] = [];
    queue.putBack.mockImplementation((jobs) => (putBack.push(jobs.map(({ job }) => job.id)), Promise.resolve()));
    const jobs = heldJobs();
    const userOf = (work: { job: Job }) => (work.job.data.n < 4 ? 'a' : 'b');
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 4, drainDeadlineMs: 1000, putBackMaxSeconds: 30 },
      { prepare: asWork, run: jobs.run, turnsOf: (work) => [{ key: userOf(work), limit: 2 }] },
    );

    sut.start();
    await until(() => jobs.running.size === 3);
    expect([...jobs.running.keys()].sort()).toEqual(['job-0', 'job-1', 'job-4']);
    expect(putBack).toEqual([['job-2', 'job-3']]);
    expect(fetches[0]).toBe(4);
    const stopped = sut.stop();
    jobs.endAll();
    await stopped;
  });

  it("puts back a full key's jobs due one after the other at the pace its turns free, the first a second from now, none past putBackMaxSeconds", async () => {
    // Six jobs of one user, who may hold 2: 2 run, 4 go back, the first a second from now. No job
    // has ended, so a run is taken as 20 ms: the key frees a turn every 10 ms.
    const { queue } = queueOf(6);
    const afterSeconds: number[][] = [];
    queue.putBack.mockImplementation(
      (jobs) => (afterSeconds.push(jobs.map((job) => job.afterSeconds)), Promise.resolve()),
    );
    const { jobs, clock } = heldJobsOnAClock();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 4, drainDeadlineMs: 1000, putBackMaxSeconds: 1.015 },
      { prepare: asWork, run: jobs.run, turnsOf: () => [{ key: 'a', limit: 2 }] },
    );

    sut.start();
    // Two fetches (4, then the 2 slots left) put back 2 each, the second pair after the first.
    await until(() => jobs.running.size === 2 && afterSeconds.flat().length === 4);
    expect(afterSeconds.flat().map((seconds) => seconds.toFixed(3))).toEqual(['1.000', '1.010', '1.015', '1.015']);
    expect(clock.now).toBe(0);
    const stopped = sut.stop();
    jobs.endAll();
    await stopped;
  });

  it('takes only the slots `slotsNow` gives, more as soon as it gives more, and says when jobs wait for a slot', async () => {
    const { queue } = queueOf(6);
    const jobs = heldJobs();
    let slots = 1;
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 4, stock: 4, drainDeadlineMs: 1000, slotsNow: () => slots },
      { prepare: asWork, run: jobs.run },
    );

    sut.start();
    await until(() => jobs.running.size === 1 && sut.backlogged());
    await new Promise((resolve) => setImmediate(resolve));
    expect([...jobs.running.keys()]).toEqual(['job-0']);
    // No job ends: the loop finds the new slots by itself (within its idle poll).
    slots = 4;
    await until(() => jobs.running.size === 4);
    expect(sut.backlogged()).toBe(true);
    jobs.endAll();
    await until(() => jobs.running.size === 2 && !sut.backlogged());
    const stopped = sut.stop();
    jobs.endAll();
    await stopped;
  });

  it('without a stock, starts the lease again of jobs fetched for slots `slotsNow` took back before they ran, once they outlived stockMaxAgeMs', async () => {
    const { queue } = queueOf(3);
    queue.renewLeases.mockImplementation((held) => Promise.resolve(held.map((job) => job.id)));
    const { jobs, started, clock } = heldJobsOnAClock();
    let slots = 3;
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 3, drainDeadlineMs: 1000, stockMaxAgeMs: 500, slotsNow: () => slots },
      {
        // The slots are taken back while the fetched jobs are readied (mail came in meanwhile).
        prepare: (fetched) => ((slots = 1), asWork(fetched)),
        run: jobs.run,
      },
    );

    sut.start();
    await until(() => started.length === 1 && sut.backlogged());
    expect(queue.renewLeases).not.toHaveBeenCalled();
    // job-1 waited past its age limit: its lease starts again before it runs.
    clock.now = 501;
    jobs.running.get('job-0')!();
    jobs.running.delete('job-0');
    await until(() => started.length === 2);
    expect(queue.renewLeases.mock.calls).toEqual([[[expect.objectContaining({ id: 'job-1' })]]]);
    await stopEndingAll(sut, jobs);
  });

  it('counts the slots held by jobs that started more than a given time ago', async () => {
    const { queue } = queueOf(3);
    const { jobs, clock } = heldJobsOnAClock();
    const sut = new JobLoop(
      queue,
      { name: 'test', concurrency: 2, drainDeadlineMs: 1000 },
      { prepare: asWork, run: jobs.run },
    );

    sut.start();
    await until(() => jobs.running.size === 2);
    expect(sut.slotsHeldLongerThan(1000)).toBe(0);
    clock.now = 1500;
    expect(sut.slotsHeldLongerThan(1000)).toBe(2);
    // job-0 ends; job-2 takes its slot at 1,500.
    jobs.running.get('job-0')!();
    jobs.running.delete('job-0');
    await until(() => jobs.running.has('job-2'));
    expect(sut.slotsHeldLongerThan(1000)).toBe(1);
    const stopped = sut.stop();
    jobs.endAll();
    await stopped;
  });
});
