import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Teams (docs/teams.md): the members of an account with their role, and their console sessions.
 * An invitation is the member row while it is `invited`: its token's hash and end, cleared when
 * it is accepted (single use), gone with the row when withdrawn. A session keeps only the SHA-256
 * of its cookie and ends with its member (ON DELETE CASCADE), so removal signs the member out
 * everywhere at once.
 */
export class MembersAndSessions1765641600000 implements MigrationInterface {
  name = 'MembersAndSessions1765641600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE TABLE members (
        id uuid PRIMARY KEY,
        account_id text NOT NULL,
        email text NOT NULL,
        name text,
        role text NOT NULL,
        status text NOT NULL,
        password_hash text,
        invitation_hash bytea,
        invitation_expires_at timestamptz(3),
        invited_at timestamptz(3) NOT NULL,
        invited_by text NOT NULL,
        joined_at timestamptz(3),
        last_sign_in_at timestamptz(3),
        CONSTRAINT members_role_check CHECK (role IN ('owner', 'admin', 'developer', 'viewer')),
        CONSTRAINT members_status_check CHECK (status IN ('invited', 'active'))
      )`,
    );
    await db.query(`CREATE UNIQUE INDEX ux_members_account_email ON members (account_id, lower(email))`);
    await db.query(`CREATE INDEX ix_members_email ON members (lower(email))`);
    await db.query(`CREATE UNIQUE INDEX ux_members_invitation_hash ON members (invitation_hash)`);
    await db.query(
      `CREATE TABLE member_sessions (
        id uuid PRIMARY KEY,
        member_id uuid NOT NULL CONSTRAINT member_sessions_member_id_fkey REFERENCES members (id) ON DELETE CASCADE,
        token_hash bytea NOT NULL,
        created_at timestamptz(3) NOT NULL,
        last_used_at timestamptz(3) NOT NULL
      )`,
    );
    await db.query(`CREATE UNIQUE INDEX ux_member_sessions_token_hash ON member_sessions (token_hash)`);
    await db.query(`CREATE INDEX ix_member_sessions_member ON member_sessions (member_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE member_sessions`);
    await db.query(`DROP TABLE members`);
  }
}
