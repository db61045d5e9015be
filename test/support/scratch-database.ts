import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, MIGRATIONS } from '../../src/platform/database/data-source-options';
import { createDatabaseIfMissing } from '../../src/platform/database/embedded-postgres';
import { ENTITIES } from '../../src/entities';

/**
 * A database of the calling suite's own on the test server, created before its tests and dropped
 * after them, for a migration test: `migratedTo(list)` opens it with only those migrations known,
 * so a suite can stop just before the migration it tests, write rows, then run the rest. When
 * TEST_DATABASE_ADMIN_URL is set (DATABASE_URL names a pooler), on that server directly: these
 * suites test migrations, not the pooler (global-setup.ts).
 */
export function scratchDatabase(label: string) {
  const name = `mailroom_${label}_${randomBytes(4).toString('hex')}`;
  const maintenanceUrl = new URL(process.env.TEST_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_URL!);
  maintenanceUrl.pathname = '/postgres';
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;

  beforeAll(() => createDatabaseIfMissing(maintenanceUrl.toString(), name));
  afterAll(async () => {
    const client = new Client({ connectionString: maintenanceUrl.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  });

  return {
    /** The database's URL, for a client other than TypeORM (pg-boss making its own schema). */
    url: url.toString(),
    migratedTo: (migrations: (typeof MIGRATIONS)[number][]) =>
      new DataSource({ ...dataSourceOptions(url.toString(), ENTITIES), migrations }).initialize(),
  };
}
