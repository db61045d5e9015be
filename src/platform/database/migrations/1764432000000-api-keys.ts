import { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys (docs/api.md#smtp-submission) and the generation counter their revocation is announced by. */
export class ApiKeys1764432000000 implements MigrationInterface {
  name = 'ApiKeys1764432000000';

  async up(db: QueryRunner): Promise<void> {
    // hash is HMAC-SHA256 of the key (ApiKeyHasher): the key itself is never stored.
    await db.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        name text NOT NULL CONSTRAINT api_keys_name_check CHECK (char_length(name) BETWEEN 1 AND 100),
        scopes text[] NOT NULL CONSTRAINT api_keys_scopes_check CHECK (cardinality(scopes) > 0 AND scopes <@ ARRAY['send', 'read', 'keys']::text[]),
        hash bytea NOT NULL,
        created_at timestamptz(3) NOT NULL,
        last_used_at timestamptz(3)
      )`);
    await db.query(`CREATE UNIQUE INDEX ux_api_keys_hash ON api_keys (hash)`);
    // The list's order, and the per-user count under the cap.
    await db.query(`CREATE INDEX ix_api_keys_user_created ON api_keys (user_id, created_at, id)`);
    await db.query(`
      CREATE TABLE api_key_revocations (
        id smallint PRIMARY KEY CONSTRAINT api_key_revocations_one_row CHECK (id = 1),
        generation bigint NOT NULL
      )`);
    await db.query(`INSERT INTO api_key_revocations (id, generation) VALUES (1, 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE api_key_revocations`);
    await db.query(`DROP TABLE api_keys`);
  }
}
