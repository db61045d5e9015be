import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account-wide events (docs/delivery-and-deliverability.md#webhooks): a user's webhook endpoints, and the outbox grown from one row per
 * message event into one row per event and target. Nothing is rewritten: the new columns are
 * nullable (an older row's event id is its own id, its type `message.<status>`), and the foreign
 * key is validated without blocking writes.
 */
export class WebhookEndpoints1764777600000 implements MigrationInterface {
  name = 'WebhookEndpoints1764777600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL DEFAULT '{}',
        description text,
        enabled boolean NOT NULL DEFAULT true,
        disabled_reason text,
        secret text NOT NULL,
        previous_secret text,
        previous_secret_until timestamptz(3),
        failing_since timestamptz(3),
        failed_attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz(3) NOT NULL
      )`);
    await db.query(`CREATE INDEX ix_webhook_endpoints_user ON webhook_endpoints (user_id, created_at, id)`);
    // Several targets of one event share its message and sequence now.
    await db.query(`ALTER TABLE webhook_events DROP CONSTRAINT uq_webhook_events_message_sequence`);
    await db.query(`
      ALTER TABLE webhook_events
        ALTER COLUMN message_id DROP NOT NULL,
        ALTER COLUMN sequence DROP NOT NULL,
        ALTER COLUMN status DROP NOT NULL,
        ADD COLUMN event_id uuid,
        ADD COLUMN type text,
        ADD COLUMN endpoint_id uuid,
        ADD COLUMN data jsonb`);
    await db.query(`
      ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_endpoint_id_fkey
        FOREIGN KEY (endpoint_id) REFERENCES webhook_endpoints (id) ON DELETE CASCADE NOT VALID`);
    await db.query(`ALTER TABLE webhook_events VALIDATE CONSTRAINT webhook_events_endpoint_id_fkey`);
    // An endpoint's deliveries, newest first (the log's filter, and the cascade of its delete); DESC as above.
    await db.query(
      `CREATE INDEX ix_webhook_events_endpoint ON webhook_events (endpoint_id, created_at DESC, id DESC) WHERE endpoint_id IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    // Rows the older schema cannot hold: account events and the endpoints' copies.
    await db.query(`DELETE FROM webhook_events WHERE endpoint_id IS NOT NULL OR message_id IS NULL OR status IS NULL`);
    await db.query(`DROP INDEX ix_webhook_events_endpoint`);
    await db.query(`
      ALTER TABLE webhook_events
        DROP COLUMN data, DROP COLUMN endpoint_id, DROP COLUMN type, DROP COLUMN event_id,
        ALTER COLUMN status SET NOT NULL, ALTER COLUMN sequence SET NOT NULL, ALTER COLUMN message_id SET NOT NULL`);
    await db.query(
      `ALTER TABLE webhook_events ADD CONSTRAINT uq_webhook_events_message_sequence UNIQUE (message_id, sequence)`,
    );
    await db.query(`DROP TABLE webhook_endpoints`);
  }
}
