import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log (docs/teams.md#audit-log): one row per change to an account, written in the
 * change's transaction. Listed newest first per account, optionally for one actor or one action
 * (an index each, read backwards); purged by `at` with the messages' retention window.
 */
export class AuditLog1765555200000 implements MigrationInterface {
  name = 'AuditLog1765555200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE TABLE audit_log_entries (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        at timestamptz(3) NOT NULL,
        actor_type text NOT NULL CONSTRAINT audit_log_entries_actor_type_check CHECK (actor_type IN ('member', 'api_key', 'jwt')),
        actor_id text NOT NULL,
        actor_label text NOT NULL,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NOT NULL,
        client_address text NOT NULL,
        detail jsonb NOT NULL
      )`,
    );
    await db.query(`CREATE INDEX ix_audit_log_entries_user_at ON audit_log_entries (user_id, at, id)`);
    await db.query(`CREATE INDEX ix_audit_log_entries_user_actor_at ON audit_log_entries (user_id, actor_id, at, id)`);
    await db.query(`CREATE INDEX ix_audit_log_entries_user_action_at ON audit_log_entries (user_id, action, at, id)`);
    await db.query(`CREATE INDEX ix_audit_log_entries_at ON audit_log_entries (at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_log_entries`);
  }
}
