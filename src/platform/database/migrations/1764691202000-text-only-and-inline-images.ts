import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Text-only sends and inline images (docs/api.md#sending): a message without `html` keeps null there (its
 * `text` is then required), and an inline attachment may carry the Content-ID that the HTML's
 * `cid:` references name; null for an ordinary attachment.
 */
export class TextOnlyAndInlineImages1764691202000 implements MigrationInterface {
  name = 'TextOnlyAndInlineImages1764691202000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages ALTER COLUMN html DROP NOT NULL`);
    await db.query(`ALTER TABLE message_attachments ADD COLUMN content_id text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_attachments DROP COLUMN content_id`);
    // A text-only message keeps its text; the empty HTML part is what the older schema can hold.
    await db.query(`UPDATE messages SET html = '' WHERE html IS NULL`);
    await db.query(`ALTER TABLE messages ALTER COLUMN html SET NOT NULL`);
  }
}
