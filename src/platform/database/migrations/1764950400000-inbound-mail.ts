import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Inbound mail (docs/inbound.md): a verified domain may receive, one user per domain name (a partial
 * unique index, so two users may still both send from it); each received mail is stored once per
 * user it was for, raw and as read, with its attachments decoded for download.
 */
export class InboundMail1764950400000 implements MigrationInterface {
  name = 'InboundMail1764950400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sending_domains ADD COLUMN receiving boolean NOT NULL DEFAULT false`);
    await db.query(`CREATE UNIQUE INDEX uq_sending_domains_receiver ON sending_domains (name) WHERE receiving = true`);
    await db.query(`
      CREATE TABLE inbound_mails (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        received_at timestamptz(3) NOT NULL,
        mail_from text NOT NULL,
        rcpt_to text[] NOT NULL,
        from_mailbox text,
        from_address text,
        to_mailboxes text[] NOT NULL,
        cc_mailboxes text[] NOT NULL,
        recipient_addresses text[] NOT NULL,
        subject text,
        message_id text,
        text text,
        html text,
        headers jsonb NOT NULL,
        spf text NOT NULL,
        dkim text NOT NULL,
        dmarc text NOT NULL,
        reply_to_message_id uuid,
        raw bytea NOT NULL
      )`);
    await db.query(`CREATE INDEX ix_inbound_mails_user_received ON inbound_mails (user_id, received_at, id)`);
    // Retention walks all users' mail by age.
    await db.query(`CREATE INDEX ix_inbound_mails_received ON inbound_mails (received_at)`);
    await db.query(`
      CREATE TABLE inbound_attachments (
        inbound_id uuid NOT NULL REFERENCES inbound_mails (id) ON DELETE CASCADE,
        position smallint NOT NULL,
        file_name text NOT NULL,
        content_type text NOT NULL,
        size integer NOT NULL,
        content bytea NOT NULL,
        PRIMARY KEY (inbound_id, position)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE inbound_attachments`);
    await db.query(`DROP TABLE inbound_mails`);
    await db.query(`DROP INDEX uq_sending_domains_receiver`);
    await db.query(`ALTER TABLE sending_domains DROP COLUMN receiving`);
  }
}
