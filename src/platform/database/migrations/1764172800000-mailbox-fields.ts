import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * docs/api.md#sending's cc, bcc, replyTo, text and headers, each null where not given. cc and bcc recipients
 * also get message_recipients rows (the toEmail filter and its kept counts), added by the send.
 */
export class MailboxFields1764172800000 implements MigrationInterface {
  name = 'MailboxFields1764172800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE messages
        ADD COLUMN cc text[],
        ADD COLUMN bcc text[],
        ADD COLUMN reply_to text[],
        ADD COLUMN text text,
        ADD COLUMN headers jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE messages DROP COLUMN headers, DROP COLUMN text, DROP COLUMN reply_to, DROP COLUMN bcc, DROP COLUMN cc`,
    );
  }
}
