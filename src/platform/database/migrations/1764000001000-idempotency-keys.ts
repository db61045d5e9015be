import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1764000001000 implements MigrationInterface {
  name = 'IdempotencyKeys1764000001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE idempotency_keys (
        user_id text NOT NULL,
        key text NOT NULL,
        request_hash bytea NOT NULL,
        response json NOT NULL,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (user_id, key)
      )`);
    await db.query(`CREATE INDEX ix_idempotency_keys_created ON idempotency_keys (created_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE idempotency_keys`);
  }
}
