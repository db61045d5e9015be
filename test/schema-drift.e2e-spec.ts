// The entities are the schema's description in code; the migrations are what builds it. Here the
// two must agree: TypeORM's own diff (what `npm run migration:generate` would write) of the
// entities against a freshly migrated database must come out empty, and every table must have
// its entity. What TypeORM cannot express or does not compare (DESC order, the partial index's
// WHERE, UNLOGGED, the count triggers) is said in the migrations, with a comment beside each.
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options';

describe('entities and migrations', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    // The e2e run's database, migrated once by the global setup; the diff below only reads it.
    dataSource = await new DataSource(dataSourceOptions(process.env.TEST_DATABASE_URL!)).initialize();
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
});
