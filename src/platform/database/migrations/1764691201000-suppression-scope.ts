import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which mail a suppression stops (docs/delivery-and-deliverability.md): `bulk` (a message with a bulkSendingId) for an
 * unsubscribe, which leaves one stream and not the other; `all` for a hard bounce, a complaint or
 * the owner's own entry, which may also ask for `bulk`. Entries made before are backfilled by that
 * rule. The check holds each reason to the scopes it may have. No default: the writer decides.
 */
export class SuppressionScope1764691201000 implements MigrationInterface {
  name = 'SuppressionScope1764691201000';

  async up(db: QueryRunner): Promise<void> {
    // A constant default is stored once, not written into each row (PostgreSQL 11+): only the
    // unsubscribes are then rewritten, and the default goes, so that every writer names a scope.
    await db.query(`ALTER TABLE suppressions ADD COLUMN scope text NOT NULL DEFAULT 'all'`);
    await db.query(`UPDATE suppressions SET scope = 'bulk' WHERE reason = 'unsubscribe'`);
    await db.query(`
      ALTER TABLE suppressions
        ALTER COLUMN scope DROP DEFAULT,
        ADD CONSTRAINT suppressions_scope_check CHECK (
          (scope = 'all' AND reason <> 'unsubscribe') OR (scope = 'bulk' AND reason IN ('unsubscribe', 'manual'))
        )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE suppressions DROP CONSTRAINT suppressions_scope_check, DROP COLUMN scope`);
  }
}
