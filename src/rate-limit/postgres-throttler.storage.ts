import { Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { PreparedStatements } from '../database/prepared-statements';

/**
 * Request counters in PostgreSQL, so that every API process shares one budget per user and no
 * second server is needed (SPEC §8). One fixed window per key: a single upsert counts the hit
 * and starts a new window once the old one has ended. The table is UNLOGGED: a counter lost in
 * a database crash costs nothing, and skipping the write-ahead log keeps the hit cheap.
 */
type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

@Injectable()
export class PostgresThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly statements: PreparedStatements) {}

  async increment(key: string, ttlMs: number, limit: number, _blockDurationMs: number, throttler: string): Promise<ThrottlerStorageRecord> {
    // Raw and prepared, not a TypeORM upsert: every request runs it (about 0.1 ms saved a run, see PreparedStatements).
    const [row]: { hits: number; seconds_left: number }[] = await this.statements.query(
      `INSERT INTO rate_limit_counters AS c (key, hits, window_ends_at)
       VALUES ($1, 1, now() + $2 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_ends_at <= now() THEN 1 ELSE c.hits + 1 END,
         window_ends_at = CASE WHEN c.window_ends_at <= now() THEN excluded.window_ends_at ELSE c.window_ends_at END
       RETURNING hits, ceil(extract(epoch FROM c.window_ends_at - now()))::integer AS seconds_left`,
      [counterKey(throttler, key), ttlMs],
    );
    const isBlocked = row.hits > limit;
    // A blocked caller waits for the window to end: that is when its budget comes back.
    return { totalHits: row.hits, timeToExpire: row.seconds_left, isBlocked, timeToBlockExpire: isBlocked ? row.seconds_left : 0 };
  }
}

/** The counter's row key: the throttler's name and the guard's key (the user id). */
export function counterKey(throttler: string, key: string): string {
  return `${throttler}:${key}`;
}
