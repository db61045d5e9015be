import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a deferred message's next delivery attempt is due (the Message's `nextAttemptAt`): written
 * by the statement that defers it and cleared by every other change, so that the message list reads
 * it from the row rather than joining pg-boss's job table. A nullable column without a default is a
 * catalog change: the table's lock lasts no longer than that. Messages deferred before it show null
 * until their next attempt: only platform/queue may read pg-boss's tables (pg-boss-tables.spec.ts), whose
 * shape changes with pg-boss's major versions, and a migration is frozen in time.
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
