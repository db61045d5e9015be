import { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES_BEFORE = `'scheduled', 'queued', 'sending', 'deferred', 'sent', 'failed', 'canceled', 'suppressed'`;
const STATUSES = `'scheduled', 'queued', 'sending', 'deferred', 'sent', 'failed', 'canceled', 'suppressed', 'bounced', 'complained'`;

/**
 * The bounce and complaint loop (docs/delivery-and-deliverability.md#statuses, docs/delivery-and-deliverability.md): the statuses a report leads to; history entries
 * that name the recipient a report is about, and entries that record a report without changing
 * the status (a delay, a report nobody could read); and the reports already applied, so that the
 * same report twice changes nothing more.
 */
export class BounceLoop1764345601000 implements MigrationInterface {
  name = 'BounceLoop1764345601000';

  async up(db: QueryRunner): Promise<void> {
    await replaceStatusChecks(db, STATUSES);
    // `note`: the entry is no status change, so it is not one of the `sequence` changes a webhook counts.
    await db.query(
      `ALTER TABLE message_status_events ADD COLUMN recipient text, ADD COLUMN note boolean NOT NULL DEFAULT false`,
    );
    // One row per report applied: its message, the recipient it was about (address key), its kind
    // and the SHA-256 of what it says (status code, diagnostic), whatever mail carried it.
    await db.query(`
      CREATE TABLE applied_reports (
        message_id uuid NOT NULL CONSTRAINT applied_reports_message_id_fkey REFERENCES messages (id) ON DELETE CASCADE,
        recipient text NOT NULL,
        kind text NOT NULL,
        fingerprint text NOT NULL,
        applied_at timestamptz(3) NOT NULL,
        PRIMARY KEY (message_id, recipient, kind, fingerprint)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE applied_reports`);
    await db.query(`DELETE FROM message_status_events WHERE note`);
    await db.query(`ALTER TABLE message_status_events DROP COLUMN note, DROP COLUMN recipient`);
    await db.query(`UPDATE messages SET status = 'sent' WHERE status IN ('bounced', 'complained')`);
    await db.query(`DELETE FROM message_status_events WHERE status IN ('bounced', 'complained')`);
    await replaceStatusChecks(db, STATUSES_BEFORE);
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
