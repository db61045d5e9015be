import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Pool, PoolClient } from 'pg';
import { Database } from './database';
import type { DatabasePoolMode } from '../config/app-config';
import { poolModeOf } from './pool-mode';

/**
 * The statements every request runs (the rate-limit hit, a list's count and page) as named
 * prepared statements on TypeORM's pool: each connection parses a statement once rather than on
 * every request (about 0.1 ms a statement here), and the request skips TypeORM's query runner.
 * A statement's name is a digest of its text, so one name never stands for two statements.
 *
 * Each connection is told to plan named statements for their values on every run: left to
 * choose, PostgreSQL settles on one plan for any values after five runs, and for the combined
 * list filter of a million-message user that plan was a hash join over all its messages (350 ms
 * instead of 150). Set here rather than in DATABASE_URL, which the operator owns. The setting
 * stays with the connection for whatever else runs on it; it matters only to statements that
 * keep plans (named ones, and PL/pgSQL's).
 *
 * Behind a pooler in transaction mode (DATABASE_POOL_MODE) neither can stay: a client's next
 * statement may reach another server connection, where the name does not exist or another client
 * made it (26000, 42P05), and a setting left on a server connection reaches the pooler's other
 * clients. There each statement runs unnamed (parsed and planned for its values on each run,
 * which is what force_custom_plan asked for), with nothing set.
 */
export class StatementPool {
  private readonly names = new Map<string, string>();
  private readonly planningPerRun = new WeakSet<PoolClient>();
  private readonly named: boolean;

  /** `pool` may be the primary's or a replica's (DATABASE_READ_URL), pooled as `mode` says. */
  constructor(
    private readonly pool: Pool,
    mode: DatabasePoolMode,
  ) {
    this.named = mode === 'session';
  }

  async query<T>(sql: string, params: unknown[]): Promise<T[]> {
    if (!this.named) return (await this.pool.query(sql, params)).rows as T[];
    const client = await this.pool.connect();
    let failed = false;
    // While a client is out of the pool, nothing else hears its 'error' event (a dropped
    // connection): unheard, it would end the process. The running query fails by itself.
    const lost = () => (failed = true);
    client.on('error', lost);
    try {
      if (!this.planningPerRun.has(client)) {
        await client.query(`SET plan_cache_mode = force_custom_plan`);
        this.planningPerRun.add(client);
      }
      const { rows } = await client.query({ name: this.nameOf(sql), text: sql, values: params });
      return rows as T[];
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      client.removeListener('error', lost);
      // As pool.query does: a connection whose statement failed is closed, not reused.
      client.release(failed);
    }
  }

  private nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (name === undefined) {
      name = createHash('sha256').update(sql).digest('base64url').slice(0, 32);
      this.names.set(sql, name);
    }
    return name;
  }
}

/** The statements on the primary, TypeORM's pool (Database). */
@Injectable()
export class PreparedStatements extends StatementPool {
  constructor(database: Database) {
    super(database.pool, poolModeOf(database.dataSource));
  }
}
