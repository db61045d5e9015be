// npm run bench:seed [-- --big 1000000 --others 10 --each 100000]
// Fills the list benchmark's database: one user with a million messages and ten with 100,000
// each, a year of them, in every status, with recipients (customers with ~50 messages each, and
// an ops@ copy on a tenth), newsletter campaigns and status histories. Rows are made
// by PostgreSQL itself (INSERT … SELECT generate_series), a statement per user and table, so
// the triggers that keep list counts see each batch as one statement.
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrationsExclusively } from '../src/platform/database/data-source-options';
import { ENTITIES } from '../src/entities';
import { senderIdFor } from '../src/messages/addresses';
import { BENCH_USER, benchListDatabase, otherBenchUser } from './list-database';
import { runBench } from './support';

export const SENDERS = [
  'news@example.com',
  'billing@example.com',
  'alerts@example.com',
  'team@example.com',
  'hello@example.com',
];
const RECIPIENT_POOL = 20_000;
const YEAR_SECONDS = 365 * 86_400;
const NOW = '2026-11-21T00:00:00Z';

async function seedUser(db: DataSource, userId: string, count: number): Promise<void> {
  const senderIds = SENDERS.map((email) => senderIdFor(userId, email));
  await db.query(
    `INSERT INTO senders (id, user_id, email) SELECT unnest($1::uuid[]), $2, unnest($3::text[]) ON CONFLICT DO NOTHING`,
    [senderIds, userId, SENDERS],
  );
  // Statuses as a sender sees them: mostly sent, some failed, a few on their way.
  await db.query(
    `INSERT INTO messages (id, user_id, sender_id, sender, recipients, subject, html, status, priority,
       bulk_sending_id, sent_at, updated_at, status_changes)
     SELECT md5($1 || ':' || i)::uuid, $1, ($2::uuid[])[1 + i % 5], ($3::text[])[1 + i % 5],
       -- 20,000 customers get about 50 messages each; a tenth of all mail is copied to ops@.
       ARRAY['r' || (i::bigint * 7919 % ${RECIPIENT_POOL}) || '@example.com'] || CASE WHEN i % 10 = 3 THEN ARRAY['ops@example.com'] ELSE '{}' END,
       'Seeded message ' || i, '<p>Hello from the benchmark</p>',
       CASE WHEN i % 100 < 85 THEN 'sent' WHEN i % 100 < 90 THEN 'failed' WHEN i % 100 < 93 THEN 'deferred'
            WHEN i % 100 < 97 THEN 'queued' ELSE 'sending' END,
       -- A quarter of the mail belongs to five newsletter campaigns of 50,000 each.
       'normal', CASE WHEN i % 4 = 0 THEN 'campaign-' || (i / 4 % 5) END,
       t, t, CASE WHEN i % 100 < 93 THEN 3 ELSE 1 END
     FROM generate_series(1, $4::int) AS i,
       LATERAL (SELECT $5::timestamptz - make_interval(secs => (i::float8 * ${YEAR_SECONDS} / $4)) AS t) times`,
    [userId, senderIds, SENDERS, count, NOW],
  );
  await db.query(
    `INSERT INTO message_recipients (message_id, email, user_id, sent_at)
     SELECT id, unnest(recipients), user_id, sent_at FROM messages WHERE user_id = $1`,
    [userId],
  );
  await db.query(
    `INSERT INTO message_status_events (message_id, status, at)
     SELECT id, 'queued', sent_at FROM messages WHERE user_id = $1
     UNION ALL SELECT id, 'sending', sent_at + interval '1 second' FROM messages WHERE user_id = $1 AND status <> 'queued'
     UNION ALL SELECT id, status, sent_at + interval '2 seconds' FROM messages WHERE user_id = $1 AND status NOT IN ('queued', 'sending')`,
    [userId],
  );
}

/** Drops and fills the list benchmark's database. */
export async function seedListDatabase(sizes = { big: 1_000_000, others: 10, each: 100_000 }): Promise<void> {
  const started = performance.now();
  const { url, close } = await benchListDatabase({ fresh: true });
  const db = new DataSource(dataSourceOptions(url, ENTITIES));
  await db.initialize();
  await runMigrationsExclusively(db);
  await seedUser(db, BENCH_USER, sizes.big);
  console.log(`${BENCH_USER}: ${sizes.big} messages (${((performance.now() - started) / 1000).toFixed(1)} s)`);
  for (let u = 1; u <= sizes.others; u++) {
    await seedUser(db, otherBenchUser(u), sizes.each);
    console.log(
      `${otherBenchUser(u)}: ${sizes.each} messages (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
  }
  // Visibility map and statistics, as autovacuum would leave them: index-only scans need both.
  await db.query(`VACUUM (ANALYZE) messages, message_recipients, message_status_events, message_count_changes`);
  await db.destroy();
  await close();
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

if (require.main === module) {
  const { values } = parseArgs({
    options: {
      big: { type: 'string', default: '1000000' },
      others: { type: 'string', default: '10' },
      each: { type: 'string', default: '100000' },
    },
  });
  runBench(() =>
    seedListDatabase({ big: Number(values.big), others: Number(values.others), each: Number(values.each) }),
  );
}
