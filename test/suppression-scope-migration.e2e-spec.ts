// The migration that gives suppressions their scope (SPEC §9), on a database of its own that was
// migrated up to just before it and holds an entry of every reason: unsubscribes become `bulk`,
// the others `all`, and the table then refuses a scope its reason may not have.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, MIGRATIONS } from '../src/database/data-source-options';
import { SuppressionScope1764691201000 } from '../src/database/migrations/1764691201000-suppression-scope';
import { createDatabaseIfMissing } from '../src/database/embedded-postgres';
import { ENTITIES } from '../src/entities';

describe('migration SuppressionScope1764691201000', () => {
  const name = `mailroom_scope_migration_${randomBytes(4).toString('hex')}`;
  const maintenanceUrl = new URL(process.env.TEST_DATABASE_URL!);
  maintenanceUrl.pathname = '/postgres';
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;
  const migratedTo = (migrations: (typeof MIGRATIONS)[number][]) =>
    new DataSource({ ...dataSourceOptions(url.toString(), ENTITIES), migrations }).initialize();

  beforeAll(() => createDatabaseIfMissing(maintenanceUrl.toString(), name));
  afterAll(async () => {
    const client = new Client({ connectionString: maintenanceUrl.toString() });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.end();
  });

  it('backfills unsubscribes as bulk and every other reason as all, then holds each reason to its scopes', async () => {
    expect(MIGRATIONS).toContain(SuppressionScope1764691201000);
    const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(SuppressionScope1764691201000));
    const old = await migratedTo(before);
    await old.runMigrations();
    await old.query(
      `INSERT INTO suppressions (user_id, email, reason, message_id, created_at)
       SELECT 'u1', reason || '@example.com', reason, NULL, now()
       FROM unnest(ARRAY['hard_bounce', 'complaint', 'unsubscribe', 'manual']) AS reason`,
    );
    await old.destroy();

    const current = await migratedTo(MIGRATIONS);
    try {
      await current.runMigrations();

      expect(
        await current.query(`SELECT reason, scope FROM suppressions WHERE user_id = 'u1' ORDER BY reason`),
      ).toEqual([
        { reason: 'complaint', scope: 'all' },
        { reason: 'hard_bounce', scope: 'all' },
        { reason: 'manual', scope: 'all' },
        { reason: 'unsubscribe', scope: 'bulk' },
      ]);
      const insert = (reason: string, scope: string | null) =>
        current.query(
          `INSERT INTO suppressions (user_id, email, reason, scope, message_id, created_at) VALUES ('u2', $1, $2, $3, NULL, now())`,
          [`${reason}-${scope}@example.com`, reason, scope],
        );
      for (const [reason, scope] of [
        ['unsubscribe', 'all'],
        ['hard_bounce', 'bulk'],
        ['complaint', 'bulk'],
        ['manual', 'nothing'],
      ])
        await expect(insert(reason, scope)).rejects.toMatchObject({ constraint: 'suppressions_scope_check' });
      await expect(insert('manual', null)).rejects.toMatchObject({ column: 'scope' });
      await insert('manual', 'bulk');
      expect(await current.query(`SELECT reason, scope FROM suppressions WHERE user_id = 'u2'`)).toEqual([
        { reason: 'manual', scope: 'bulk' },
      ]);
    } finally {
      await current.destroy();
    }
  });
});
