import { ScheduledTask } from './scheduled-task';

/** A run the test holds open: `started` when the task is called, ended by `release()`. */
function heldRun() {
  let release!: () => void;
  let started!: (signal: AbortSignal) => void;
  const startedSignal = new Promise<AbortSignal>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  return { startedSignal, release, task: (signal: AbortSignal) => (started(signal), released) };
}

const noError = (err: unknown) => {
  throw err;
};

describe(ScheduledTask.name, () => {
  it('waits in stop() for the run in progress to end, and aborts its signal', async () => {
    const events: string[] = [];
    const held = heldRun();
    const task = new ScheduledTask(
      async (signal) => {
        events.push('run started');
        await held.task(signal);
        events.push(`run ended, aborted: ${signal.aborted}`);
      },
      { everyMs: 60_000, firstRun: 'at-start', onError: noError },
    );
    task.start();
    await held.startedSignal;
    const stopped = task.stop().then(() => events.push('stopped'));
    held.release();
    await stopped;
    expect(events).toEqual(['run started', 'run ended, aborted: true', 'stopped']);
  });

  it('never runs twice at once: a run asked for while one is under way is that run', async () => {
    let calls = 0;
    const held = heldRun();
    const task = new ScheduledTask(
      (signal) => {
        calls++;
        return held.task(signal);
      },
      { everyMs: 60_000, firstRun: 'after-interval', onError: noError },
    );
    const first = task.runNow();
    const second = task.runNow();
    expect(second).toBe(first);
    held.release();
    await first;
    expect(calls).toBe(1);
    await task.runNow();
    expect(calls).toBe(2);
  });

  describe('on its timer', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('runs every interval (first at start when asked) and never after stop()', async () => {
      let calls = 0;
      const task = new ScheduledTask(() => Promise.resolve(void calls++), {
        everyMs: 1_000,
        firstRun: 'after-interval',
        onError: noError,
      });
      task.start();
      await jest.advanceTimersByTimeAsync(999);
      expect(calls).toBe(0);
      await jest.advanceTimersByTimeAsync(1);
      expect(calls).toBe(1);
      await jest.advanceTimersByTimeAsync(2_000);
      expect(calls).toBe(3);
      await task.stop();
      await jest.advanceTimersByTimeAsync(10_000);
      expect(calls).toBe(3);

      const atStart = new ScheduledTask(() => Promise.resolve(void calls++), {
        everyMs: 1_000,
        firstRun: 'at-start',
        onError: noError,
      });
      atStart.start();
      await jest.advanceTimersByTimeAsync(0);
      expect(calls).toBe(4);
      await atStart.stop();
    });
  });

  it('hands a failed run to onError and runs again next time', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const task = new ScheduledTask(
      () => (++calls === 1 ? Promise.reject(new Error('database away')) : Promise.resolve()),
      { everyMs: 60_000, firstRun: 'after-interval', onError: (err) => errors.push(err) },
    );
    await task.runNow();
    await task.runNow();
    expect(errors).toEqual([new Error('database away')]);
    expect(calls).toBe(2);
  });
});
