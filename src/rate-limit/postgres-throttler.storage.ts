import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { PreparedStatements } from '../database/prepared-statements';
import { RATE_LIMIT_WINDOW_MS } from './rate-limit.window';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** How often a process writes the hits it admitted on its own. */
export const SYNC_INTERVAL_MS = 100;
/** Near its end a window is left to the database, whose clock decides when it ends. */
const WINDOW_END_MARGIN_MS = 50;

/**
 * What a process may admit on its own between two writes: a hundredth of the limit. It bounds the
 * overshoot: once the users' count reaches the limit, each API process admits at most this many
 * more before its next write tells it so, so a window admits at most limit + processes × this.
 */
export function localAllowance(limit: number): number {
  return Math.max(1, Math.ceil(limit / 100));
}

/** What this process knows of one user's window. */
interface KnownWindow {
  /** Date.now() at which the window ends, as the database said at the last write. */
  endsAt: number;
  /** The window's count at the last write, every process's hits included. */
  hits: number;
  /** Hits admitted here since then, to be written. */
  unwritten: number;
}

/**
 * Request counters in PostgreSQL, so that every API process shares one budget per user and no
 * second server is needed (SPEC §8): one fixed window per key, in an UNLOGGED table (a counter lost
 * in a database crash costs nothing). A request is admitted from what this process last learned
 * of the window, without a round trip, up to localAllowance() hits between writes; the hits are
 * written in the background every SYNC_INTERVAL_MS, and each write brings back the count of every
 * process. The first request of a window, one past the allowance, one near the window's end and
 * one this process would refuse count in the database on the request's path, exactly. In one process the count is therefore
 * exact; across processes it may pass the limit by at most localAllowance() per process.
 */
@Injectable()
export class PostgresThrottlerStorage implements ThrottlerStorage, OnModuleDestroy {
  private readonly logger = new Logger('RateLimit');
  private readonly windows = new Map<string, KnownWindow>();
  private timer?: NodeJS.Timeout;
  private writing = Promise.resolve();
  /** The window's length, as the throttler gives it with each hit. */
  private ttlMs = RATE_LIMIT_WINDOW_MS;

  constructor(private readonly statements: PreparedStatements) {}

  async increment(key: string, ttlMs: number, limit: number, _blockDurationMs: number, throttler: string): Promise<ThrottlerStorageRecord> {
    this.ttlMs = ttlMs;
    const counter = counterKey(throttler, key);
    const known = this.windows.get(counter);
    const now = Date.now();
    // Only admissions are local: a refusal is the database's, which may know the window ended.
    if (known && now < known.endsAt - WINDOW_END_MARGIN_MS && known.unwritten < localAllowance(limit) && known.hits + known.unwritten < limit) {
      known.unwritten += 1;
      this.writeSoon();
      return record(known.hits + known.unwritten, known.endsAt - now, limit);
    }
    const { hits, msLeft } = await this.countNow(counter, 1, ttlMs);
    return record(hits, msLeft, limit);
  }

  /**
   * Counts `hits` for the key on the caller's path, with what this process admitted and has not
   * written yet; `limit` makes it all or none (none when the window would pass it).
   */
  async countNow(counter: string, hits: number, ttlMs: number, limit?: number): Promise<{ spent: boolean; hits: number; msLeft: number }> {
    const known = this.windows.get(counter);
    let unwritten = known?.unwritten ?? 0;
    if (known) known.unwritten = 0;
    // Counted with the hits when they cannot be refused; an all-or-none charge must not take them along.
    if (limit === undefined) [hits, unwritten] = [hits + unwritten, 0];
    if (unwritten > 0) await this.write([[counter, unwritten]], ttlMs);
    const [row]: { spent: boolean; hits: number; ms_left: number }[] = await this.statements.query(
      `WITH spent AS (
         INSERT INTO rate_limit_counters AS c (key, hits, window_ends_at)
         SELECT $1, $2::integer, now() + $3::integer * interval '1 millisecond' WHERE $4::integer IS NULL OR $2::integer <= $4::integer
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN c.window_ends_at <= now() THEN excluded.hits ELSE c.hits + excluded.hits END,
           window_ends_at = CASE WHEN c.window_ends_at <= now() THEN excluded.window_ends_at ELSE c.window_ends_at END
         WHERE $4::integer IS NULL OR c.window_ends_at <= now() OR c.hits + excluded.hits <= $4::integer
         RETURNING c.hits, c.window_ends_at
       )
       SELECT true AS spent, hits, ${msLeftOf('window_ends_at')} AS ms_left FROM spent
       UNION ALL
       SELECT false, hits, ${msLeftOf('window_ends_at')} FROM rate_limit_counters WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM spent)`,
      [counter, hits, ttlMs, limit ?? null],
    );
    // No row: an all-or-none charge larger than the limit for a key never counted.
    if (!row) return { spent: false, hits: limit ?? hits, msLeft: ttlMs };
    this.learn(counter, row.hits, row.ms_left);
    return { spent: row.spent, hits: row.hits, msLeft: row.ms_left };
  }

  /** Writes what is left at shutdown, so that a rolling restart does not refill anyone's budget. */
  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
    await this.writeUnwritten().catch((error: unknown) => this.logger.warn({ err: error }, 'Hits admitted before shutdown were not written'));
  }

  private writeSoon(): void {
    this.timer ??= setTimeout(() => {
      this.writing = this.writing
        .then(() => this.writeUnwritten())
        // A failed write keeps nothing: the table is a best-effort counter, and the next request
        // past the allowance counts on its own path (where a database failure is the client's 503).
        .catch((error: unknown) => this.logger.warn({ err: error }, 'Admitted hits were not written'))
        .finally(() => (this.timer = undefined));
    }, SYNC_INTERVAL_MS);
    this.timer.unref();
  }

  private async writeUnwritten(): Promise<void> {
    const batch: [string, number][] = [];
    for (const [counter, known] of this.windows) {
      if (known.unwritten > 0) batch.push([counter, known.unwritten]);
      known.unwritten = 0;
    }
    if (batch.length > 0) await this.write(batch, this.ttlMs);
    // Windows that have ended are forgotten: their next request counts in the database.
    const now = Date.now();
    for (const [counter, known] of this.windows) if (known.endsAt <= now && known.unwritten === 0) this.windows.delete(counter);
  }

  /** One statement for every key; each row brings back the window's count of every process. */
  private async write(batch: [string, number][], ttlMs: number): Promise<void> {
    const rows: { key: string; hits: number; ms_left: number }[] = await this.statements.query(
      `INSERT INTO rate_limit_counters AS c (key, hits, window_ends_at)
       SELECT key, hits, now() + $3::integer * interval '1 millisecond' FROM unnest($1::text[], $2::integer[]) AS u(key, hits)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_ends_at <= now() THEN excluded.hits ELSE c.hits + excluded.hits END,
         window_ends_at = CASE WHEN c.window_ends_at <= now() THEN excluded.window_ends_at ELSE c.window_ends_at END
       RETURNING c.key, c.hits, ${msLeftOf('c.window_ends_at')} AS ms_left`,
      [batch.map(([counter]) => counter), batch.map(([, hits]) => hits), ttlMs],
    );
    for (const { key, hits, ms_left } of rows) this.learn(key, hits, ms_left);
  }

  private learn(counter: string, hits: number, msLeft: number): void {
    const known = this.windows.get(counter);
    this.windows.set(counter, { endsAt: Date.now() + msLeft, hits, unwritten: known?.unwritten ?? 0 });
  }
}

/** SQL: the milliseconds left of a window ending at `column`. */
const msLeftOf = (column: string) => `greatest(0, floor(extract(epoch FROM ${column} - now()) * 1000))::integer`;

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
