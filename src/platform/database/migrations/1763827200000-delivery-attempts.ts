import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveryAttempts1763827200000 implements MigrationInterface {
  name = 'DeliveryAttempts1763827200000';

  async up(db: QueryRunner): Promise<void> {
    // The attempt a delivery job belongs to: a late or duplicate job for another attempt is ignored.
    await db.query(`ALTER TABLE messages ADD COLUMN delivery_attempts integer NOT NULL DEFAULT 0`);
    await db.query(
      `ALTER TABLE message_status_events ADD CONSTRAINT message_status_events_status_check
       CHECK (status IN ('queued', 'sending', 'deferred', 'sent', 'failed'))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE message_status_events DROP CONSTRAINT message_status_events_status_check`);
    await db.query(`ALTER TABLE messages DROP COLUMN delivery_attempts`);
  }
}
