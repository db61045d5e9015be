/** When a ScheduledTask first runs: at once on start (then every interval), or after the first interval. */
export type FirstRun = 'at-start' | 'after-interval';

export interface ScheduledTaskOptions {
  everyMs: number;
  firstRun: FirstRun;
  /** A run that throws: the task is the caller's, so is what its failure means (a log line, mostly). */
  onError: (err: unknown) => void;
}

/**
 * A periodic job of a process (a purge, a sweep, a compaction): run every `everyMs`, never two
 * runs at once (a tick while one runs is skipped), on a timer that does not hold the process open.
 * `stop()` ends the ticks, aborts `signal` (a run of several batches stops between two) and waits
 * for the run in progress, so a shutdown never cuts a transaction short.
 */
export class ScheduledTask {
  private readonly stopping = new AbortController();
  private running?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private first?: NodeJS.Immediate;

  constructor(
    private readonly task: (signal: AbortSignal) => Promise<unknown>,
    private readonly options: ScheduledTaskOptions,
  ) {}

  /** Aborted once stop() is called: what a run checks between its batches. */
  get signal(): AbortSignal {
    return this.stopping.signal;
  }

  start(): void {
    if (this.timer || this.signal.aborted) return;
    if (this.options.firstRun === 'at-start') this.first = setImmediate(() => void this.runNow());
    this.timer = setInterval(() => void this.runNow(), this.options.everyMs);
    this.timer.unref();
  }

  /** Runs the task now, unless a run is under way (then that run) or the task is stopped; settles when the run ends. */
  runNow(): Promise<void> {
    if (this.signal.aborted) return this.running ?? Promise.resolve();
    this.running ??= this.task(this.signal)
      .then(
        () => undefined,
        (err: unknown) => this.options.onError(err),
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearImmediate(this.first);
    clearInterval(this.timer);
    await this.running;
  }
}
