import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { EntityManager, EntitySubscriberInterface, QueryFailedError, QueryRunner } from 'typeorm';
import { poolModeOf } from './pool-mode';

const names = new Map<string, string>();

/**
 * Runs `sql` in the manager's transaction as a named prepared statement with one generic plan:
 * its connection parses and plans it once, not on every run. For the lifecycle's long CTE
 * statements, run for every batch of a few messages, planning cost more than running: at batches
 * of one, PostgreSQL's CPU per claim fell from 2.8 to 0.7 ms and per finish from 1.9 to 0.8 ms
 * (bench/lifecycle-statements.ts). Left to choose, PostgreSQL kept planning them for each run's
 * values (a custom plan looks cheaper while it knows how many rows unnest returns), so the
 * transaction asks for the generic plan, at its first such statement (a round trip of its own).
 * SET LOCAL, since the same connections also serve lists, which want a plan per run
 * (PreparedStatements). Every parameterized statement after it in the same transaction is
 * planned generically too: a read whose best plan depends on its values (a list filter) belongs
 * before it or in a transaction of its own. Errors come as TypeORM's, as manager.query throws
 * them; outside a transaction it is manager.query.
 *
 * Behind a pooler in transaction mode (DATABASE_POOL_MODE) a named statement outlives its
 * transaction's server connection (26000 does not exist, 42P05 already exists on the next): there
 * the statement runs unnamed, still with the generic plan asked for by SET LOCAL, which ends with
 * the transaction and so reaches no other client of the pooler.
 */
export async function preparedInTransaction<T>(manager: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const runner = manager.queryRunner;
  if (runner === undefined || runner.isReleased || !runner.isTransactionActive) return manager.query(sql, params);
  const client = (await runner.connect()) as PoolClient;
  try {
    if (!runner.data[GENERIC_PLANS]) {
      const subscribers = manager.connection.subscribers;
      if (!subscribers.includes(genericPlansUntilEnd)) subscribers.push(genericPlansUntilEnd);
      await client.query(`SET LOCAL plan_cache_mode = force_generic_plan`);
      runner.data[GENERIC_PLANS] = true;
    }
    const named = poolModeOf(manager.connection) === 'session';
    const { rows } = await client.query(
      named ? { name: nameOf(sql), text: sql, values: params } : { text: sql, values: params },
    );
    return rows as T[];
  } catch (error) {
    throw new QueryFailedError(sql, params, error as Error);
  }
}

// Where a transaction notes that it asked for generic plans: once is enough until it ends.
const GENERIC_PLANS = 'genericPlans';

/**
 * Registered on the DataSource at the first use: forgets the note when the setting ends, at the
 * end of the transaction or the rollback of a savepoint (which undoes a SET LOCAL made within it;
 * one made before it stays, and is made again, harmlessly).
 */
const genericPlansUntilEnd: EntitySubscriberInterface = {
  afterTransactionCommit({ queryRunner }) {
    if (!queryRunner.isTransactionActive) forget(queryRunner);
  },
  afterTransactionRollback({ queryRunner }) {
    forget(queryRunner);
  },
};
const forget = (runner: QueryRunner) => delete runner.data[GENERIC_PLANS];

/** A digest of the text, so that one name never stands for two statements. */
function nameOf(sql: string): string {
  let name = names.get(sql);
  if (name === undefined) {
    name = createHash('sha256').update(sql).digest('base64url').slice(0, 32);
    names.set(sql, name);
  }
  return name;
}
