import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { RateLimitCountersRepository, WindowRow } from './rate-limit-counters.repository';
import { RATE_LIMIT_WINDOW_MS } from './rate-limit.window';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** How often a process writes the hits it admitted on its own. */
export const SYNC_INTERVAL_MS = 100;
/** Near its end a window is left to the database, so that no hit of it is written into the next. */
const WINDOW_END_MARGIN_MS = 2 * SYNC_INTERVAL_MS;
/** How often windows that have ended are forgotten. */
const SWEEP_INTERVAL_MS = 10_000;

/**
 * What a process may admit on its own before the database has its hits: a hundredth of the
 * limit. It bounds the overshoot: once a user's count reaches the limit, each API process admits
 * at most this many more before a write tells it so, so a window admits at most
 * limit + processes × this.
 */
export function localAllowance(limit: number): number {
  return Math.max(1, Math.ceil(limit / 100));
}

/** What this process knows of one user's window. */
interface KnownWindow {
  /** The window's end as the database has it (epoch ms): which window this is. */
  endsAtMs: number;
  /** performance.now() at which the window ends here. */
  endsAt: number;
  /** The window's count at the newest answer, every process's hits included. */
  hits: number;
  /** Hits admitted here, not yet sent to the database. */
  unwritten: number;
  /** The number of the statement whose answer this is: of two answers about different windows, the later-asked one wins. */
  asked: number;
}

/**
 * Request counters in PostgreSQL, so that every API process shares one budget per user and no
 * second server is needed (docs/scaling.md): one fixed window per key, in an UNLOGGED table (a counter lost
 * in a database crash costs nothing). A request is admitted from what this process last learned
 * of the window, without a round trip, while fewer than localAllowance() of its hits are unknown
 * to the database; those are written every SYNC_INTERVAL_MS, and each answer brings back the
 * count of every process. The first request of a window, one past the allowance, one near the
 * window's end and one this process would refuse count in the database on the request's path.
 * In one process the count is therefore exact; across processes a window may pass the limit by
 * at most localAllowance() per process.
 */
@Injectable()
export class PostgresThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly windows = new Map<string, KnownWindow>();
  /**
   * Hits sent to the database and not yet answered, by key: written ones and those of requests
   * counting on their own path alike (a request's own hit too, before any window is known), so
   * that no admission here overlooks one.
   */
  private readonly sending = new Map<string, number>();
  /** Keys whose admitted hits a background write (writeSoon) is sending now. */
  private readonly writing = new Set<string>();
  private timer?: NodeJS.Timeout;
  private writes = Promise.resolve();
  private lastSweep = performance.now();
  /** Numbers the statements, in the order they are sent. */
  private asked = 0;
  /** From shutdown on, every hit is counted on its request's path. */
  private closing = false;
  /** The window's length, as the throttler gives it with each hit. */
  private ttlMs = RATE_LIMIT_WINDOW_MS;

  constructor(private readonly counters: RateLimitCountersRepository) {}

  async increment(
    key: string,
    ttlMs: number,
    limit: number,
    _blockDurationMs: number,
    throttler: string,
  ): Promise<ThrottlerStorageRecord> {
    this.ttlMs = ttlMs;
    const counter = counterKey(throttler, key);
    const known = this.windows.get(counter);
    const now = performance.now();
    if (known && !this.closing && now < known.endsAt - WINDOW_END_MARGIN_MS) {
      const unknownToDatabase = known.unwritten + (this.sending.get(counter) ?? 0);
      // Only admissions are local: a refusal is the database's, which may know the window ended.
      if (unknownToDatabase < localAllowance(limit) && known.hits + unknownToDatabase < limit) {
        known.unwritten += 1;
        this.writeSoon();
        return record(known.hits + unknownToDatabase + 1, known.endsAt - now, limit);
      }
    }
    const { hits, msLeft } = await this.countNow(counter, 1, ttlMs);
    return record(hits, msLeft, limit);
  }

  /**
   * Counts `hits` for the key on the caller's path, with what this process admitted and has not
   * written yet; `limit` makes it all or none (none when the window would pass it).
   */
  async countNow(
    counter: string,
    hits: number,
    ttlMs: number,
    limit?: number,
  ): Promise<{ spent: boolean; hits: number; msLeft: number }> {
    // A write of this key's admitted hits already on its way: this count goes after it, so that its
    // answer (the request's RateLimit-Remaining) counts them; the other way round it could run first.
    if (this.writing.has(counter)) await this.writes;
    const known = this.windows.get(counter);
    const unwritten = known?.unwritten ?? 0;
    if (known) known.unwritten = 0;
    // Hits admitted here go with a count that cannot be refused; an all-or-none charge must not take them along.
    if (limit !== undefined && unwritten > 0) await this.write([[counter, unwritten]], ttlMs);
    const carried = limit === undefined ? unwritten : 0;
    // Until answered these count as spent, an all-or-none charge too (it may yet be refused).
    this.addSending(counter, hits + carried);
    try {
      const asked = ++this.asked;
      const row = await this.counters.charge(counter, hits + carried, ttlMs, limit);
      // No row: an all-or-none charge larger than the limit for a key never counted.
      if (!row) return { spent: false, hits: limit ?? hits, msLeft: ttlMs };
      this.learn(row, asked);
      return { spent: row.spent!, hits: row.hits, msLeft: row.msLeft };
    } finally {
      this.addSending(counter, -(hits + carried));
    }
  }

  /** Writes what is left at shutdown, so that a rolling restart does not refill anyone's budget. */
  async onModuleDestroy(): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writes;
    await this.writeUnwritten().catch((error: unknown) =>
      this.logger.warn({ err: error }, 'Hits admitted before shutdown were not written'),
    );
  }

  private writeSoon(): void {
    this.timer ??= setTimeout(() => {
      // Cleared first: hits admitted while this write runs get a timer of their own.
      this.timer = undefined;
      // Writes run one after another, and a failed one is only logged: the table is a
      // best-effort counter, and the next request past the allowance counts on its own path
      // (where a database failure is the client's 503).
      this.writes = this.writes
        .then(() => this.writeUnwritten())
        .catch((error: unknown) => this.logger.warn({ err: error }, 'Admitted hits were not written'));
    }, SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  private async writeUnwritten(): Promise<void> {
    const batch: [string, number][] = [];
    for (const [counter, known] of this.windows) if (known.unwritten > 0) batch.push([counter, known.unwritten]);
    for (const [counter] of batch) this.windows.get(counter)!.unwritten = 0;
    if (batch.length === 0) return;
    for (const [counter] of batch) this.writing.add(counter);
    try {
      await this.write(batch, this.ttlMs);
    } finally {
      for (const [counter] of batch) this.writing.delete(counter);
    }
  }

  /** One statement for every key; each row brings back the window's count of every process. */
  private async write(batch: [string, number][], ttlMs: number): Promise<void> {
    for (const [counter, hits] of batch) this.addSending(counter, hits);
    try {
      const asked = ++this.asked;
      const rows = await this.counters.add(batch, ttlMs);
      for (const row of rows) this.learn(row, asked);
    } finally {
      for (const [counter, hits] of batch) this.addSending(counter, -hits);
    }
  }

  /**
   * Takes an answer in. Answers on several connections may cross: for the same window the
   * highest count is the newest; for another window, the answer to the later statement wins.
   */
  private learn({ key, hits, endsAtMs, msLeft }: WindowRow, asked: number): void {
    const known = this.windows.get(key);
    const now = performance.now();
    if (known && endsAtMs === known.endsAtMs) {
      known.hits = Math.max(known.hits, hits);
      known.asked = Math.max(known.asked, asked);
    } else if (!known || asked > known.asked) {
      this.windows.set(key, {
        endsAtMs,
        endsAt: now + msLeft,
        hits,
        unwritten: known?.unwritten ?? 0,
        asked,
      });
    }
    if (now - this.lastSweep > SWEEP_INTERVAL_MS) this.forgetEndedWindows(now);
  }

  private addSending(counter: string, hits: number): void {
    const total = (this.sending.get(counter) ?? 0) + hits;
    if (total === 0) this.sending.delete(counter);
    else this.sending.set(counter, total);
  }

  /** Windows that have ended are forgotten: their key's next request counts in the database. */
  private forgetEndedWindows(now: number): void {
    this.lastSweep = now;
    for (const [counter, known] of this.windows)
      if (known.endsAt <= now && known.unwritten === 0 && !this.sending.has(counter)) this.windows.delete(counter);
  }
}

function record(hits: number, msLeft: number, limit: number): ThrottlerStorageRecord {
  const isBlocked = hits > limit;
  // A blocked caller waits for the window to end: that is when its budget comes back.
  const secondsLeft = Math.max(0, Math.ceil(msLeft / 1000));
  return { totalHits: hits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
}

/** The counter's row key: the throttler's name and the guard's key (the user id). */
export function counterKey(throttler: string, key: string): string {
  return `${throttler}:${key}`;
}
