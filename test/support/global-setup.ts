// Gives the e2e run one fresh database, migrated once: a new database on the server of
// DATABASE_URL when it is set (as on CI), otherwise on an embedded server in a temporary folder.
// A copy of it, taken before anyone connects, is the template of the suites' own databases
// (test-app.ts): a copy costs a tenth of what running the migrations again costs.
// When DATABASE_URL names a pooler (PgBouncer), TEST_DATABASE_ADMIN_URL names the same server
// directly: the run's database is created, migrated and copied there, and only the apps under
// test use DATABASE_URL. Through the pooler the copy fails ("source database … is being accessed
// by other users"): the pooler keeps the server connections the migrations used open.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrationsExclusively } from '../../src/platform/database/data-source-options';
import { ENTITIES } from '../../src/entities';
import { createDatabaseIfMissing, EmbeddedPostgres } from '../../src/platform/database/embedded-postgres';

export interface TestDatabaseState {
  embedded?: { server: EmbeddedPostgres; dataDir: string };
  dropUrl?: { maintenanceUrl: string; name: string };
  /** The migrated template, on the same server; dropped with the run's database. */
  template?: { maintenanceUrl: string; name: string };
}

/**
 * The run's own server is thrown away at its end, so it skips what only survives a machine's crash
 * (flushing each commit to disk), and it takes the connections of two jest workers whose suites
 * start several processes at once (each with a pool; PostgreSQL's default is 100).
 */
const TEST_SERVER_SETTINGS = {
  fsync: 'off',
  synchronous_commit: 'off',
  full_page_writes: 'off',
  max_connections: '300',
};

export default async function globalSetup(): Promise<void> {
  const state: TestDatabaseState = {};
  const adminUrl = process.env.TEST_DATABASE_ADMIN_URL;
  if (adminUrl && !process.env.DATABASE_URL)
    throw new Error("TEST_DATABASE_ADMIN_URL names DATABASE_URL's server directly: set DATABASE_URL too");
  /** What the apps under test connect to. */
  let url: string;
  /** The same database without a pooler between: what creates, migrates and copies it. */
  let directUrl: string;
  if (process.env.DATABASE_URL) {
    const server = new URL(process.env.DATABASE_URL);
    const direct = new URL(adminUrl ?? process.env.DATABASE_URL);
    const name = `mailroom_test_${randomBytes(4).toString('hex')}`;
    const maintenanceUrl = new URL(direct);
    maintenanceUrl.pathname = '/postgres';
    await createDatabaseIfMissing(maintenanceUrl.toString(), name);
    server.pathname = `/${name}`;
    direct.pathname = `/${name}`;
    url = server.toString();
    directUrl = direct.toString();
    state.dropUrl = { maintenanceUrl: maintenanceUrl.toString(), name };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-test-'));
    state.embedded = { server: new EmbeddedPostgres(dataDir, TEST_SERVER_SETTINGS), dataDir };
    url = await state.embedded.server.start();
    directUrl = url;
  }
  const dataSource = await new DataSource(dataSourceOptions(directUrl, ENTITIES)).initialize();
  await runMigrationsExclusively(dataSource);
  await dataSource.destroy();
  const template = await copyAsTemplate(directUrl);
  process.env.TEST_DATABASE_URL = url;
  process.env.TEST_TEMPLATE_DATABASE = template.name;
  state.template = template;
  (globalThis as { testDatabase?: TestDatabaseState }).testDatabase = state;
  process.stdout.write(
    `\ne2e database: ${state.embedded ? 'embedded PostgreSQL' : `${name(url)} on DATABASE_URL's server`}${adminUrl ? ' (created through TEST_DATABASE_ADMIN_URL)' : ''}\n`,
  );
}

/** The migrated database's copy; its source must have no session, so it is made here. */
async function copyAsTemplate(url: string): Promise<{ maintenanceUrl: string; name: string }> {
  const maintenanceUrl = new URL(url);
  maintenanceUrl.pathname = '/postgres';
  const template = `${name(url)}_template`;
  const client = new Client({ connectionString: maintenanceUrl.toString() });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${template}" TEMPLATE "${name(url)}"`);
  } finally {
    await client.end();
  }
  return { maintenanceUrl: maintenanceUrl.toString(), name: template };
}

function name(url: string): string {
  return new URL(url).pathname.slice(1);
}
