import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a deferred message's next delivery attempt is due (the Message's `nextAttemptAt`): written
 * by the statement that defers it and cleared by every other change, so that the message list reads
 * it from the row rather than joining pg-boss's job table. A nullable column without a default is
 * a catalog change, so the table's exclusive lock lasts no longer than that; the messages deferred
 * before get their value in the next migration, in a transaction of its own that locks only them.
 */
export class NextAttemptAt1765036801000 implements MigrationInterface {
  name = 'NextAttemptAt1765036801000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages ADD COLUMN next_attempt_at timestamptz(3)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages DROP COLUMN next_attempt_at`);
  }
}
