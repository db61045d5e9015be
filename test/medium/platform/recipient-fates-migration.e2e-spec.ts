// Messages with no fates kept (docs/delivery-and-deliverability.md#statuses "Recipients"): those stored before the migration that adds
// the column, and those a process of the previous version stores during a rolling deploy. The
// migration rewrites no row; such a message shows fates read from its status, and its delivery and
// reports go on as before, its `[]` left as it is.
import { MIGRATIONS } from '../../../src/platform/database/data-source-options';
import { RecipientFates1764691200000 } from '../../../src/platform/database/migrations/1764691200000-recipient-fates';
import { MessageLifecycle } from '../../../src/messages/lifecycle/message-lifecycle.repository';
import { storeMessage } from '../../support/factories';
import { scratchDatabase } from '../../support/scratch-database';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('migration RecipientFates1764691200000', () => {
  const { migratedTo } = scratchDatabase('fates_migration');

  it('adds the column without rewriting a message: earlier ones keep [] and their row version', async () => {
    expect(MIGRATIONS).toContain(RecipientFates1764691200000);
    const old = await migratedTo(MIGRATIONS.slice(0, MIGRATIONS.indexOf(RecipientFates1764691200000)));
    await old.runMigrations();
    await old.query(
      `INSERT INTO senders (id, user_id, email) VALUES ('00000000-0000-4000-8000-000000000001', 'u1', 'a@example.com')`,
    );
    await old.query(
      `INSERT INTO messages (id, user_id, sender_id, sender, recipients, subject, html, status, priority, sent_at, updated_at)
       SELECT gen_random_uuid(), 'u1', '00000000-0000-4000-8000-000000000001', 'a@example.com', ARRAY['r' || i || '@example.com'],
         's', 'h', 'sent', 'normal', '2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z'
       FROM generate_series(1, 10) AS i`,
    );
    const versions = await old.query(`SELECT id, xmin::text FROM messages ORDER BY id`);
    await old.destroy();

    const current = await migratedTo(MIGRATIONS);
    try {
      await current.runMigrations();
      expect(await current.query(`SELECT id, xmin::text FROM messages ORDER BY id`)).toEqual(versions);
      expect(await current.query(`SELECT DISTINCT recipient_fates FROM messages`)).toEqual([{ recipient_fates: [] }]);
    } finally {
      await current.destroy();
    }
  });
});

describe('a message stored with no fates kept', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({}, { isolatedDatabase: true });
  });
  afterAll(() => t?.close());

  it('shows fates read from its status, and is claimed, finished and bounced as before', async () => {
    const userId = newUserId('legacy');
    const { id } = await storeMessage(t.db, userId, {
      recipients: ['Ada <Ada@example.com>'],
      cc: ['cc@example.com'],
      bcc: null,
    });
    await t.db.query(`UPDATE messages SET recipient_fates = '[]' WHERE id = $1`, [id]);
    const get = async () => (await t.http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200)).body;
    const fates = (status: string) => [
      { email: 'Ada@example.com', type: 'to', status, detail: null, at: expect.any(String), route: null },
      { email: 'cc@example.com', type: 'cc', status, detail: null, at: expect.any(String), route: null },
    ];
    expect((await get()).recipients).toEqual(fates('pending'));

    const lifecycle = t.app.get(MessageLifecycle);
    const fate = { position: 1, key: 'cc@example.com', status: 'failed' as const, detail: '550 5.1.1 gone' };
    await t.db.transaction((m) => lifecycle.claim(m, [{ messageId: id, attempt: 1 }], {}));
    const { moved } = await t.db.transaction((m) =>
      lifecycle.finish(m, [{ messageId: id, attempt: 1, status: 'sent', detail: '250 ok', fates: [fate] }]),
    );
    expect(moved.map((m) => m.id)).toEqual([id]);
    await t.db.transaction((m) =>
      lifecycle.bounce(m, { messageId: id, detail: '5.1.1 gone', recipient: 'ada@example.com', position: 0 }),
    );

    const message = await get();
    expect(message.status).toBe('bounced');
    expect(message.recipients).toEqual(fates('sent'));
    expect(await t.db.query(`SELECT recipient_fates FROM messages WHERE id = $1`, [id])).toEqual([
      { recipient_fates: [] },
    ]);
  });
});
