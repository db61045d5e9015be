import { MigrationInterface, QueryRunner } from 'typeorm';

export class StoredAttachments1764000000000 implements MigrationInterface {
  name = 'StoredAttachments1764000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE attachments (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL,
        content bytea NOT NULL,
        created_at timestamptz(3) NOT NULL
      )`);
    // A message attachment is either inline (its bytes here) or stored (a reference).
    await db.query(`ALTER TABLE message_attachments ALTER COLUMN content DROP NOT NULL`);
    await db.query(`
      ALTER TABLE message_attachments
        ADD COLUMN attachment_id uuid,
        ADD CONSTRAINT message_attachments_attachment_id_fkey FOREIGN KEY (attachment_id) REFERENCES attachments (id),
        ADD CONSTRAINT ck_message_attachments_one_source CHECK ((content IS NULL) <> (attachment_id IS NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM message_attachments WHERE attachment_id IS NOT NULL`);
    await db.query(`ALTER TABLE message_attachments DROP COLUMN attachment_id, ALTER COLUMN content SET NOT NULL`);
    await db.query(`DROP TABLE attachments`);
  }
}
