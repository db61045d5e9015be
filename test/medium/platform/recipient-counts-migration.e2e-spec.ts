// Migration RecipientCounts1765382400000 (docs/api.md#reading-back's recipients per day): the messages stored before
// it are counted by its backfill, those with fates kept by each fate (a failed one the server
// refused for the address itself apart), those with none (`[]`) by the fate their status implies;
// and the triggers keep the counts as the messages change or go.
import { MIGRATIONS } from '../../../src/platform/database/data-source-options';
import { RecipientCounts1765382400000 } from '../../../src/platform/database/migrations/1765382400000-recipient-counts';
import { scratchDatabase } from '../../support/scratch-database';

const SENDER = '00000000-0000-4000-8000-000000000001';

describe('migration RecipientCounts1765382400000', () => {
  const { migratedTo } = scratchDatabase('recipient_counts_migration');

  it('backfills the recipients of earlier messages by day and fate, and the triggers keep them exact', async () => {
    expect(MIGRATIONS).toContain(RecipientCounts1765382400000);
    const old = await migratedTo(MIGRATIONS.slice(0, MIGRATIONS.indexOf(RecipientCounts1765382400000)));
    await old.runMigrations();
    await old.query(`INSERT INTO senders (id, user_id, email) VALUES ($1, 'u1', 'a@example.com')`, [SENDER]);
    const insert = (day: string, status: string, recipients: string[], fates: object[]) =>
      old.query(
        `INSERT INTO messages (id, user_id, sender_id, sender, recipients, subject, html, status, priority, sent_at, updated_at, recipient_fates)
         VALUES (gen_random_uuid(), 'u1', $1, 'a@example.com', $2, 's', 'h', $3, 'normal', $4, $4, $5)`,
        [SENDER, recipients, status, `${day}T10:00:00Z`, JSON.stringify(fates)],
      );
    const fate = (email: string, status: string, refused?: string) => ({
      email,
      type: 'to',
      status,
      detail: null,
      at: '2026-11-01T10:00:00.000Z',
      ...(refused && { refused }),
    });
    await insert(
      '2026-11-01',
      'sent',
      ['a@x.example', 'b@x.example', 'c@x.example'],
      [fate('a@x.example', 'sent'), fate('b@x.example', 'failed', 'address'), fate('c@x.example', 'failed')],
    );
    // Stored with no fates kept: counted as the Message shows them, from the status.
    await insert('2026-11-01', 'bounced', ['d@x.example', 'e@x.example'], []);
    await insert('2026-11-02', 'deferred', ['f@x.example'], []);
    await old.destroy();

    const current = await migratedTo(MIGRATIONS);
    const counts = async () =>
      Object.fromEntries(
        (
          await current.query(
            `SELECT value || ' ' || status AS key, sum(n)::int AS n FROM (
               SELECT value, status, n FROM message_counts WHERE dimension = 'recipient_day'
               UNION ALL SELECT value, status, delta FROM message_count_changes WHERE dimension = 'recipient_day'
             ) kept GROUP BY 1 HAVING sum(n) <> 0 ORDER BY 1`,
          )
        ).map((row: { key: string; n: number }) => [row.key, row.n]),
      );
    try {
      await current.runMigrations();
      expect(await counts()).toEqual({
        '2026-11-01 sent': 3,
        '2026-11-01 failed:address': 1,
        '2026-11-01 failed': 1,
        '2026-11-02 deferred': 1,
      });
      // A message without fates that moves: its recipients move with its status.
      await current.query(`UPDATE messages SET status = 'failed' WHERE status = 'deferred'`);
      // One with fates: a recipient's fate changes.
      await current.query(
        `UPDATE messages SET recipient_fates = jsonb_set(recipient_fates, '{0,status}', '"complained"'), status = 'complained'
         WHERE recipient_fates <> '[]'`,
      );
      expect(await counts()).toEqual({
        '2026-11-01 sent': 2,
        '2026-11-01 complained': 1,
        '2026-11-01 failed:address': 1,
        '2026-11-01 failed': 1,
        '2026-11-02 failed': 1,
      });
      await current.query(`DELETE FROM messages WHERE sent_at < '2026-11-02'`);
      expect(await counts()).toEqual({ '2026-11-02 failed': 1 });
    } finally {
      await current.destroy();
    }
  });
});
