const DAY_MS = 86_400_000;

/**
 * The first moment MESSAGE_RETENTION_DAYS keeps: midnight UTC `days` days before `now`'s day.
 * Every purger (sent mail, received mail, account-event deliveries) keeps the same window.
 */
export function retentionCutoff(days: number, now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY_MS);
}

/**
 * Runs `task` now and then every `everyMs`, never two runs at once (a tick while one runs is
 * skipped). The timer does not hold the process open; `stop()` ends the ticks and waits for the
 * run in progress, so a shutdown never cuts a purge's transaction short.
 */
export function repeatEvery(everyMs: number, task: () => Promise<unknown>): { stop: () => Promise<void> } {
  let running: Promise<unknown> | undefined;
  const run = () => {
    running ??= task().finally(() => (running = undefined));
  };
  const first = setImmediate(run);
  const timer = setInterval(run, everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearImmediate(first);
      clearInterval(timer);
      await running;
    },
  };
}
