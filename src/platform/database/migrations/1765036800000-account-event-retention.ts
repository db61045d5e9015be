import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Retention of account events' deliveries (WebhookRetention): it walks all users' deliveries
 * without a message by age, which no other index orders.
 */
export class AccountEventRetention1765036800000 implements MigrationInterface {
  name = 'AccountEventRetention1765036800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE INDEX ix_webhook_events_account_created ON webhook_events (created_at) WHERE message_id IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX ix_webhook_events_account_created`);
  }
}
