import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763740800000 implements MigrationInterface {
  name = 'InitialSchema1763740800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE senders (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        email text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_senders_user_email UNIQUE (user_id, email)
      )`);
    await db.query(`
      CREATE TABLE messages (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        sender_id uuid NOT NULL REFERENCES senders (id),
        sender text NOT NULL,
        recipients text[] NOT NULL,
        subject text NOT NULL,
        html text NOT NULL,
        status text NOT NULL CHECK (status IN ('queued', 'sending', 'deferred', 'sent', 'failed')),
        priority text NOT NULL CHECK (priority IN ('low', 'normal', 'high')),
        bulk_sending_id text,
        contact_id text,
        custom_payload jsonb,
        webhook_url text,
        webhook_statuses text[],
        sent_at timestamptz(3) NOT NULL,
        updated_at timestamptz(3) NOT NULL
      )`);
    // Every list query is "one user, newest first": each filter gets an index in that order.
    // The entities name these indexes but cannot say DESC (nor, to TypeORM's diff, WHERE): this is their truth.
    await db.query(`CREATE INDEX ix_messages_user_sent ON messages (user_id, sent_at DESC, id DESC)`);
    await db.query(`CREATE INDEX ix_messages_user_status_sent ON messages (user_id, status, sent_at DESC, id DESC)`);
    await db.query(`CREATE INDEX ix_messages_user_sender_sent ON messages (user_id, sender_id, sent_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX ix_messages_user_bulk_sent ON messages (user_id, bulk_sending_id, sent_at DESC, id DESC)
       WHERE bulk_sending_id IS NOT NULL`,
    );
    await db.query(`
      CREATE TABLE message_recipients (
        message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        email text NOT NULL,
        user_id text NOT NULL,
        sent_at timestamptz(3) NOT NULL,
        PRIMARY KEY (message_id, email)
      )`);
    // DESC, which the entity cannot say.
    await db.query(
      `CREATE INDEX ix_message_recipients_user_email_sent
       ON message_recipients (user_id, email, sent_at DESC, message_id DESC)`,
    );
    await db.query(`
      CREATE TABLE message_status_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        status text NOT NULL,
        at timestamptz(3) NOT NULL,
        detail text
      )`);
    await db.query(`CREATE INDEX ix_message_status_events_message ON message_status_events (message_id, id)`);
    await db.query(`
      CREATE TABLE message_attachments (
        id uuid PRIMARY KEY,
        message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        position smallint NOT NULL,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL,
        content bytea NOT NULL
      )`);
    await db.query(`CREATE INDEX ix_message_attachments_message ON message_attachments (message_id, position)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE message_attachments, message_status_events, message_recipients, messages, senders`);
  }
}
