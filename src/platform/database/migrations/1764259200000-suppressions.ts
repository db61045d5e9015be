import { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES_BEFORE = `'scheduled', 'queued', 'sending', 'deferred', 'sent', 'failed', 'canceled'`;
const STATUSES = `'scheduled', 'queued', 'sending', 'deferred', 'sent', 'failed', 'canceled', 'suppressed'`;

/** The per-user suppression list (docs/api.md#routes, docs/delivery-and-deliverability.md) and the status a message ends in when it holds every recipient (docs/delivery-and-deliverability.md#statuses). */
export class Suppressions1764259200000 implements MigrationInterface {
  name = 'Suppressions1764259200000';

  async up(db: QueryRunner): Promise<void> {
    // One entry per user and address key (lower-cased, as recipients are compared); message_id
    // names the message that caused it, with no foreign key: the entry outlives any clean-up of mail.
    await db.query(`
      CREATE TABLE suppressions (
        user_id text NOT NULL,
        email text NOT NULL,
        reason text NOT NULL CONSTRAINT suppressions_reason_check CHECK (reason IN ('hard_bounce', 'complaint', 'unsubscribe', 'manual')),
        message_id uuid,
        created_at timestamptz(3) NOT NULL,
        PRIMARY KEY (user_id, email)
      )`);
    // The list's order (created_at, email, newest first) is this index read backwards.
    await db.query(`CREATE INDEX ix_suppressions_user_created ON suppressions (user_id, created_at, email)`);
    await replaceStatusChecks(db, STATUSES);
  }

  async down(db: QueryRunner): Promise<void> {
    await replaceStatusChecks(db, STATUSES_BEFORE);
    await db.query(`DROP TABLE suppressions`);
  }
}

async function replaceStatusChecks(db: QueryRunner, statuses: string): Promise<void> {
  for (const [table, check] of [
    ['messages', 'messages_status_check'],
    ['message_status_events', 'message_status_events_status_check'],
  ]) {
    await db.query(
      `ALTER TABLE ${table} DROP CONSTRAINT ${check}, ADD CONSTRAINT ${check} CHECK (status IN (${statuses}))`,
    );
  }
}
