import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Password resets (docs/teams.md#password-reset): a pending reset keeps only the SHA-256 of its
 * link's token and its end, and goes with its member (ON DELETE CASCADE). Redeeming one deletes
 * its row (single use).
 */
export class PasswordResets1765728000000 implements MigrationInterface {
  name = 'PasswordResets1765728000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE TABLE password_resets (
        id uuid PRIMARY KEY,
        member_id uuid NOT NULL CONSTRAINT password_resets_member_id_fkey REFERENCES members (id) ON DELETE CASCADE,
        token_hash bytea NOT NULL,
        created_at timestamptz(3) NOT NULL,
        expires_at timestamptz(3) NOT NULL
      )`,
    );
    await db.query(`CREATE UNIQUE INDEX ux_password_resets_token_hash ON password_resets (token_hash)`);
    await db.query(`CREATE INDEX ix_password_resets_member ON password_resets (member_id)`);
    await db.query(`CREATE INDEX ix_password_resets_expires_at ON password_resets (expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE password_resets`);
  }
}
