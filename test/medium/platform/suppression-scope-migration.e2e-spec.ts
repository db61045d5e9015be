// The migration that gives suppressions their scope (docs/delivery-and-deliverability.md), on a database of its own that was
// migrated up to just before it and holds an entry of every reason: unsubscribes become `bulk`,
// the others `all` without being rewritten, and the table then refuses a scope its reason may not
// have, or none.
import { MIGRATIONS } from '../../../src/platform/database/data-source-options';
import { SuppressionScope1764691201000 } from '../../../src/platform/database/migrations/1764691201000-suppression-scope';

import { scratchDatabase } from '../../support/scratch-database';

describe('migration SuppressionScope1764691201000', () => {
  const { migratedTo } = scratchDatabase('scope_migration');

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
    // The row versions of the entries the backfill need not touch (xmin changes when a row is rewritten).
    const versions = `SELECT reason, xmin::text AS version FROM suppressions WHERE user_id = 'u1' AND reason <> 'unsubscribe' ORDER BY reason`;
    const untouched = await old.query(versions);
    await old.destroy();

    const current = await migratedTo(MIGRATIONS);
    try {
      await current.runMigrations();

      // Only unsubscribes were written: the others take the column's default without a rewrite.
      expect(await current.query(versions)).toEqual(untouched);

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
      // No default is left behind: a writer that names no scope is refused.
      await expect(
        current.query(
          `INSERT INTO suppressions (user_id, email, reason, message_id, created_at) VALUES ('u2', 'none@example.com', 'manual', NULL, now())`,
        ),
      ).rejects.toMatchObject({ column: 'scope' });
      await insert('manual', 'bulk');
      expect(await current.query(`SELECT reason, scope FROM suppressions WHERE user_id = 'u2'`)).toEqual([
        { reason: 'manual', scope: 'bulk' },
      ]);
    } finally {
      await current.destroy();
    }
  });
});
