import { MigrationInterface, QueryRunner } from 'typeorm';

/** SMTP submission (docs/api.md#smtp-submission): a submitted message keeps its own MIME, which delivery sends as received. */
export class SubmittedMime1764432001000 implements MigrationInterface {
  name = 'SubmittedMime1764432001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE message_mime (
        message_id uuid NOT NULL CONSTRAINT message_mime_pkey PRIMARY KEY
          CONSTRAINT message_mime_message_id_fkey REFERENCES messages (id) ON DELETE CASCADE,
        content bytea NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE message_mime`);
  }
}
