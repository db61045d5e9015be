import type { ChildProcess } from 'node:child_process';
import { treeCpuMs } from './cpu-time';

/**
 * How long a starting process may show no sign of progress before a test gives up on it. Long
 * enough for a pause of the whole machine (a neighbour's build), short against a suite's time.
 */
export const STALL_MS = 30_000;
/** Reading a process tree's CPU time walks /proc: once a second is enough to see progress. */
const SAMPLE_MS = 1000;

/** A child process as the test helpers keep one: its output so far. */
export interface Watched {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
}

/**
 * Whether child processes are getting anywhere, so that a deadline is one that a loaded machine
 * does not break: a process that prints, or whose process tree (a compiler it runs, an embedded
 * PostgreSQL) uses CPU time, is still starting however slowly; one that does neither for
 * `stallMs` is stuck. Processes watched together count as one: processes starting together take
 * turns (the migrations' lock), and the one waiting its turn progresses only through the others.
 * Wall time alone is no measure here: at a load average of 10, a start that takes 20 s on a
 * quiet machine took over 90 s.
 */
export class ProgressWatch {
  private readonly since = Date.now();
  private signature = '';
  private lastProgressAt = Date.now();
  private sampledAt = 0;

  constructor(
    private readonly watched: Watched[],
    readonly stallMs = STALL_MS,
  ) {}

  /** Milliseconds since the last sign of progress (output grown, CPU time used). */
  stalledFor(): number {
    const now = Date.now();
    if (now - this.sampledAt >= SAMPLE_MS) {
      this.sampledAt = now;
      const signature = this.watched
        .map((w) => `${w.stdout().length}+${w.stderr().length}@${treeCpuMs(w.child.pid!)}`)
        .join(' ');
      if (signature !== this.signature) {
        this.signature = signature;
        this.lastProgressAt = now;
      }
    }
    return now - this.lastProgressAt;
  }

  /** Why a wait gave up: how long nothing moved, and how long it had waited in all. */
  verdict(): string {
    return (
      `no output and no CPU time for ${Math.round(this.stalledFor() / 1000)} s ` +
      `(waited ${Math.round((Date.now() - this.since) / 1000)} s in all)`
    );
  }
}

/**
 * Polls `check` until it gives a value; fails naming `what` once `watch` has seen no progress for
 * its stallMs. `check` may throw to fail at once (a process that exited, say).
 */
export async function untilDone<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  watch: ProgressWatch,
  pollMs = 100,
): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (watch.stalledFor() > watch.stallMs) throw new Error(`Gave up waiting for ${what}: ${watch.verdict()}`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The exit of `child` (code or signal), waited for while `watch` sees progress. */
export function exitWhileProgressing(
  child: ChildProcess,
  watch: ProgressWatch,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return untilDone(
    () =>
      child.exitCode !== null || child.signalCode !== null
        ? { code: child.exitCode, signal: child.signalCode }
        : undefined,
    `pid ${child.pid} to exit`,
    watch,
  );
}
