import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The first bytes of each webhook attempt's answer (at most 1 KiB, decoded as UTF-8), shown with
 * the delivery (GET /user/webhook-deliveries/{id}). A nullable column without a default is a
 * catalog change; attempts logged before it show null.
 */
export class WebhookResponseBodies1765209601000 implements MigrationInterface {
  name = 'WebhookResponseBodies1765209601000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_attempts ADD COLUMN response_body text`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_attempts DROP COLUMN response_body`);
  }
}
