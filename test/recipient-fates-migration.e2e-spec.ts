// The migration that gives every message its recipients' fates (SPEC §5), on a database of its
// own migrated up to just before it and holding messages of several statuses: more than one batch
// of them, so that the backfill's walk through the primary key is checked past its first range.
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, MIGRATIONS } from '../src/database/data-source-options';
import { RecipientFates1764691200000 } from '../src/database/migrations/1764691200000-recipient-fates';
import { createDatabaseIfMissing } from '../src/database/embedded-postgres';
import { ENTITIES } from '../src/entities';

describe('migration RecipientFates1764691200000', () => {
  const name = `mailroom_fates_migration_${randomBytes(4).toString('hex')}`;
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

  it('gives each earlier message fates from its status, to then cc then bcc, in every batch', async () => {
    expect(MIGRATIONS).toContain(RecipientFates1764691200000);
    const old = await migratedTo(MIGRATIONS.slice(0, MIGRATIONS.indexOf(RecipientFates1764691200000)));
    await old.runMigrations();
    await old.query(
      `INSERT INTO senders (id, user_id, email) VALUES ('00000000-0000-4000-8000-000000000001', 'u1', 'a@example.com')`,
    );
    // 2,500 plain messages (three batches of the backfill), then three with cc and bcc.
    await old.query(
      `INSERT INTO messages (id, user_id, sender_id, sender, recipients, subject, html, status, priority, sent_at, updated_at)
       SELECT gen_random_uuid(), 'u1', '00000000-0000-4000-8000-000000000001', 'a@example.com', ARRAY['r' || i || '@example.com'],
         's', 'h', 'queued', 'normal', '2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z'
       FROM generate_series(1, 2500) AS i`,
    );
    const shaped = [
      ['00000000-0000-4000-8000-00000000000a', 'bounced'],
      ['00000000-0000-4000-8000-00000000000b', 'failed'],
      ['00000000-0000-4000-8000-00000000000c', 'scheduled'],
    ];
    for (const [id, status] of shaped)
      await old.query(
        `INSERT INTO messages (id, user_id, sender_id, sender, recipients, cc, bcc, subject, html, status, priority, sent_at, updated_at)
         VALUES ($1, 'u1', '00000000-0000-4000-8000-000000000001', 'a@example.com', ARRAY['Ada <Ada@Example.com>'],
           ARRAY['cc@example.com'], ARRAY['"B, C" <bcc@example.com>'], 's', 'h', $2, 'normal', '2026-11-01T00:00:00Z', '2026-11-03T04:05:06.789Z')`,
        [id, status],
      );
    await old.destroy();

    const current = await migratedTo(MIGRATIONS);
    try {
      await current.runMigrations();

      expect(
        await current.query(
          `SELECT count(*)::int AS messages, count(*) FILTER (WHERE jsonb_array_length(recipient_fates) = 1
             AND recipient_fates -> 0 ->> 'status' = 'pending' AND recipient_fates -> 0 ->> 'type' = 'to')::int AS pending
           FROM messages WHERE cc IS NULL`,
        ),
      ).toEqual([{ messages: 2500, pending: 2500 }]);
      const fates = (status: string, at: string) => [
        { email: 'Ada@Example.com', type: 'to', status, detail: null, at },
        { email: 'cc@example.com', type: 'cc', status, detail: null, at },
        { email: 'bcc@example.com', type: 'bcc', status, detail: null, at },
      ];
      const at = '2026-11-03T04:05:06.789Z';
      expect(
        await current.query(`SELECT id, recipient_fates AS fates FROM messages WHERE cc IS NOT NULL ORDER BY id`),
      ).toEqual([
        { id: shaped[0][0], fates: fates('sent', at) },
        { id: shaped[1][0], fates: fates('failed', at) },
        { id: shaped[2][0], fates: fates('pending', at) },
      ]);
    } finally {
      await current.destroy();
    }
  });
});
