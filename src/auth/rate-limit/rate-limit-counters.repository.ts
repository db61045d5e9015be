import { Injectable } from '@nestjs/common';
import { PreparedStatements } from '../../platform/database/prepared-statements';

/** A window as the database answers it. */
export interface WindowRow {
  spent?: boolean;
  key: string;
  hits: number;
  /** The window's end (epoch ms): which window this is. */
  endsAtMs: number;
  msLeft: number;
}

const WINDOW_COLUMNS = `floor(extract(epoch FROM window_ends_at) * 1000)::float8 AS "endsAtMs",
  greatest(0, floor(extract(epoch FROM window_ends_at - now()) * 1000))::integer AS "msLeft"`;

/**
 * The rate_limit_counters table: one fixed window per key, a new one once the last has ended.
 * Prepared statements: they run on every request past a process's allowance.
 */
@Injectable()
export class RateLimitCountersRepository {
  constructor(private readonly statements: PreparedStatements) {}

  /**
   * Adds `hits` to the key's window of `ttlMs`; with `limit`, all or none (none when the window
   * would pass it). The window as it stands after, `spent` telling which; none for a charge larger
   * than the limit on a key never counted.
   */
  async charge(counter: string, hits: number, ttlMs: number, limit?: number): Promise<WindowRow | undefined> {
    const [row]: WindowRow[] = await this.statements.query(
      `WITH spent AS (
         INSERT INTO rate_limit_counters AS c (key, hits, window_ends_at)
         SELECT $1, $2::integer, now() + $3::integer * interval '1 millisecond' WHERE $4::integer IS NULL OR $2::integer <= $4::integer
         ON CONFLICT (key) DO UPDATE SET
           hits = CASE WHEN c.window_ends_at <= now() THEN excluded.hits ELSE c.hits + excluded.hits END,
           window_ends_at = CASE WHEN c.window_ends_at <= now() THEN excluded.window_ends_at ELSE c.window_ends_at END
         WHERE $4::integer IS NULL OR c.window_ends_at <= now() OR c.hits + excluded.hits <= $4::integer
         RETURNING c.key, c.hits, c.window_ends_at
       )
       SELECT true AS spent, key, hits, ${WINDOW_COLUMNS} FROM spent
       UNION ALL
       SELECT false, key, hits, ${WINDOW_COLUMNS} FROM rate_limit_counters WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM spent)`,
      [counter, hits, ttlMs, limit ?? null],
    );
    return row;
  }

  /** Adds each key's hits in one statement; each row brings back the window's count of every process. */
  add(batch: [string, number][], ttlMs: number): Promise<WindowRow[]> {
    return this.statements.query(
      `INSERT INTO rate_limit_counters AS c (key, hits, window_ends_at)
       SELECT key, hits, now() + $3::integer * interval '1 millisecond' FROM unnest($1::text[], $2::integer[]) AS u(key, hits)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN c.window_ends_at <= now() THEN excluded.hits ELSE c.hits + excluded.hits END,
         window_ends_at = CASE WHEN c.window_ends_at <= now() THEN excluded.window_ends_at ELSE c.window_ends_at END
       RETURNING c.key, c.hits, ${WINDOW_COLUMNS.replaceAll('window_ends_at', 'c.window_ends_at')}`,
      [batch.map(([counter]) => counter), batch.map(([, hits]) => hits), ttlMs],
    );
  }

  /** Takes one hit back from each key's window while it lasts (a try that turned out not to count), never below 0. */
  async refund(counters: string[]): Promise<void> {
    if (counters.length === 0) return;
    await this.statements.query(
      `UPDATE rate_limit_counters SET hits = greatest(0, hits - 1) WHERE key = ANY($1::text[]) AND window_ends_at > now()`,
      [counters],
    );
  }

  /** The key's window while it lasts; undefined when it has ended or never began. */
  async current(counter: string): Promise<WindowRow | undefined> {
    const [row]: WindowRow[] = await this.statements.query(
      `SELECT key, hits, ${WINDOW_COLUMNS} FROM rate_limit_counters WHERE key = $1 AND window_ends_at > now()`,
      [counter],
    );
    return row;
  }
}
