import { preparedInTransaction } from '../../../src/platform/database/prepared-in-transaction';
import type { QueryRunner } from 'typeorm';
import { bootTestApp, TestApp } from '../../support/test-app';

/**
 * The lifecycle's statements run as named statements with one generic plan (PostgreSQL's own
 * pg_prepared_statements counts the plans), and the plan setting ends with the transaction, so
 * that the lists' named statements on the same connection keep their plan per run.
 */
describe('preparedInTransaction on PostgreSQL', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({}, { isolatedDatabase: true });
  });
  afterAll(() => t?.close());

  const statement = `SELECT count(*)::int AS n FROM messages WHERE id = ANY($1::uuid[]) AND status = $2`;

  /** A connection of its own that plans per run, as the lists leave theirs; released after `use`. */
  const onOwnConnection = async (use: (runner: QueryRunner) => Promise<void>) => {
    const runner = t.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(`SET plan_cache_mode = force_custom_plan`);
      await use(runner);
    } finally {
      await runner.release();
    }
  };
  const plansOf = async (runner: QueryRunner, sql: string) =>
    (
      (await runner.query(
        `SELECT generic_plans::int AS generic, custom_plans::int AS custom FROM pg_prepared_statements WHERE statement = $1`,
        [sql],
      )) as { generic: number; custom: number }[]
    )[0];
  const planCacheMode = async (runner: QueryRunner) =>
    ((await runner.query(`SHOW plan_cache_mode`)) as { plan_cache_mode: string }[])[0].plan_cache_mode;

  it('plans once, generically, and leaves the connection as it found it', () =>
    onOwnConnection(async (runner) => {
      for (let run = 0; run < 8; run++) {
        await runner.startTransaction();
        const [row] = await preparedInTransaction<{ n: number }>(runner.manager, statement, [[], 'queued']);
        expect(row.n).toBe(0);
        await runner.commitTransaction();
      }
      expect(await plansOf(runner, statement)).toEqual({ generic: 8, custom: 0 });
      expect(await planCacheMode(runner)).toBe('force_custom_plan');
    }));

  it('asks again after a rollback to a savepoint, which undid the setting asked for within it', () =>
    onOwnConnection(async (runner) => {
      const other = `${statement} AND delivery_attempts >= 0`;
      await runner.startTransaction();
      await runner.startTransaction(); // a savepoint
      await preparedInTransaction(runner.manager, other, [[], 'queued']);
      await runner.rollbackTransaction(); // to the savepoint: plan_cache_mode is force_custom_plan again
      for (let run = 0; run < 2; run++) await preparedInTransaction(runner.manager, other, [[], 'queued']);
      expect(await planCacheMode(runner)).toBe('force_generic_plan');
      await runner.commitTransaction();
      expect(await plansOf(runner, other)).toEqual({ generic: 3, custom: 0 });
    }));

  it('fails as manager.query fails: a TypeORM error with the SQLSTATE, and the transaction rolls back', async () => {
    await expect(
      t.db.transaction((manager) => preparedInTransaction(manager, `SELECT $1::int / 0 AS n`, [1])),
    ).rejects.toMatchObject({ name: 'QueryFailedError', code: '22012' });
  });

  it('outside a transaction is manager.query', async () => {
    const [row] = await preparedInTransaction<{ n: number }>(t.db.manager, statement, [[], 'queued']);
    expect(row).toEqual({ n: 0 });
  });
});
