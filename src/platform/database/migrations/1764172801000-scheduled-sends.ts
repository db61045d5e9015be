import { MigrationInterface, QueryRunner } from 'typeorm';

const STATUSES_BEFORE = `'queued', 'sending', 'deferred', 'sent', 'failed'`;
const STATUSES = `'scheduled', 'queued', 'sending', 'deferred', 'sent', 'failed', 'canceled'`;

/** Scheduled sends and cancel (docs/api.md#sending, docs/delivery-and-deliverability.md#statuses): the moment asked for, and the two statuses they bring. */
export class ScheduledSends1764172801000 implements MigrationInterface {
  name = 'ScheduledSends1764172801000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages ADD COLUMN scheduled_at timestamptz(3)`);
    await replaceStatusChecks(db, STATUSES);
  }

  async down(db: QueryRunner): Promise<void> {
    await replaceStatusChecks(db, STATUSES_BEFORE);
    await db.query(`ALTER TABLE messages DROP COLUMN scheduled_at`);
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
