// The entities are the schema's description in code; the migrations are what builds it. Here the
// two must agree: TypeORM's own diff (what `npm run migration:generate` would write) of the
// entities against a freshly migrated database must come out empty, and every table must have
// its entity. What TypeORM cannot express (DESC order, UNLOGGED, the count triggers) is said in
// the migrations, with a comment beside each; a partial index's WHERE, which its diff ignores, is
// compared here.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../../src/platform/database/data-source-options';
import { ENTITIES } from '../../../src/entities';

describe('entities and migrations', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    // The e2e run's database, migrated once by the global setup; the diff below only reads it.
    dataSource = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL!, ENTITIES)).initialize();
  });
  afterAll(() => dataSource?.destroy());

  it('leave nothing for migration:generate to write', async () => {
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    expect(upQueries.map((q) => q.query)).toEqual([]);
  });

  it('give every table an entity', async () => {
    const rows: { tablename: string }[] = await dataSource.query(
      `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> $1`,
      [dataSource.options.migrationsTableName ?? 'migrations'],
    );
    const tables = rows.map((r) => r.tablename).sort();
    const entityTables = dataSource.entityMetadatas.map((m) => m.tableName).sort();
    expect(entityTables).toEqual(tables);
  });

  // TypeORM's diff compares an index's name and columns, not its WHERE: compared here instead.
  it('declare each partial index with the condition the migrations gave it', async () => {
    const rows: { name: string; predicate: string }[] = await dataSource.query(
      `SELECT i.relname AS name, pg_get_expr(x.indpred, x.indrelid) AS predicate
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_namespace n ON n.oid = i.relnamespace
       WHERE n.nspname = current_schema() AND x.indpred IS NOT NULL`,
    );
    const inDatabase = Object.fromEntries(rows.map((r) => [r.name, r.predicate]));
    const declared = Object.fromEntries(
      dataSource.entityMetadatas
        .flatMap((m) => m.indices)
        .filter((i) => i.where)
        .map((i) => [i.name, `(${i.where})`]),
    );
    expect(declared).toEqual(inDatabase);
  });

  // TypeORM's diff compares a check by its name alone. Postgres reads each entity's expression on
  // a scratch copy of its table, so both sides come out in its own spelling; rolled back after.
  it('declare each check constraint with the expression the migrations gave it', async () => {
    const inDatabase = Object.fromEntries(
      (
        await dataSource.query<{ name: string; definition: string }[]>(
          `SELECT c.conname AS name, pg_get_constraintdef(c.oid) AS definition
           FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
           WHERE n.nspname = current_schema() AND c.contype = 'c'`,
        )
      ).map((r) => [r.name, r.definition]),
    );
    const declared: Record<string, string> = {};
    const runner = dataSource.createQueryRunner();
    await runner.startTransaction();
    try {
      for (const { tableName, checks } of dataSource.entityMetadatas) {
        for (const [i, check] of checks.entries()) {
          const scratch = `drift_${tableName}_${i}`;
          await runner.query(`CREATE TEMP TABLE ${scratch} (LIKE ${tableName})`);
          await runner.query(`ALTER TABLE ${scratch} ADD CONSTRAINT probe CHECK (${check.expression})`);
          const [{ definition }]: { definition: string }[] = await runner.query(
            `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'probe' AND conrelid = $1::regclass`,
            [scratch],
          );
          declared[check.name] = definition;
        }
      }
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    expect(Object.keys(declared).length).toBeGreaterThan(0);
    expect(declared).toEqual(inDatabase);
  });
});
