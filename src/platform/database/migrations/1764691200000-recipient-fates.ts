import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each recipient's fate (docs/delivery-and-deliverability.md#statuses), kept on the message so that the statements that change its
 * status change its recipients too. Messages stored before keep `[]`, and so does a message a
 * process of the previous version stores during a rolling deploy: the Message derives their fates
 * from their status when read (recipient-fates.ts). No backfill, so the column is added without
 * rewriting the table or holding its lock for longer than the ALTER.
 */
export class RecipientFates1764691200000 implements MigrationInterface {
  name = 'RecipientFates1764691200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages ADD COLUMN recipient_fates jsonb NOT NULL DEFAULT '[]'`);
    // A webhook event's payload shows the recipients as they stood at its change, on every attempt.
    await db.query(`ALTER TABLE webhook_events ADD COLUMN recipient_fates jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_events DROP COLUMN recipient_fates`);
    await db.query(`ALTER TABLE messages DROP COLUMN recipient_fates`);
  }
}
