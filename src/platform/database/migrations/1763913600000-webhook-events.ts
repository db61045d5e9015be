import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookEvents1763913600000 implements MigrationInterface {
  name = 'WebhookEvents1763913600000';

  async up(db: QueryRunner): Promise<void> {
    // Counts a message's status changes: the `sequence` of its webhook events.
    await db.query(`ALTER TABLE messages ADD COLUMN status_changes integer NOT NULL DEFAULT 1`);
    await db.query(
      `UPDATE messages m SET status_changes = (SELECT count(*) FROM message_status_events e WHERE e.message_id = m.id)`,
    );
    // The outbox: written in the same statement as the status change that causes the event.
    await db.query(`
      CREATE TABLE webhook_events (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        message_id uuid NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        sequence integer NOT NULL,
        status text NOT NULL,
        url text NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed', 'gone')),
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        CONSTRAINT uq_webhook_events_message_sequence UNIQUE (message_id, sequence)
      )`);
    // Newest first (DESC), which the entity cannot say; it names them with their columns.
    await db.query(`CREATE INDEX ix_webhook_events_user_created ON webhook_events (user_id, created_at DESC, id DESC)`);
    await db.query(
      `CREATE INDEX ix_webhook_events_user_message ON webhook_events (user_id, message_id, created_at DESC, id DESC)`,
    );
    await db.query(`
      CREATE TABLE webhook_attempts (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        attempted_at timestamptz(3) NOT NULL,
        status_code integer,
        duration_ms integer NOT NULL,
        error text
      )`);
    await db.query(`CREATE INDEX ix_webhook_attempts_event ON webhook_attempts (event_id, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_attempts, webhook_events`);
    await db.query(`ALTER TABLE messages DROP COLUMN status_changes`);
  }
}
