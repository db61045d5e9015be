import { MigrationInterface, QueryRunner } from 'typeorm';

/** Sending domains and their DKIM keys (docs/api.md#routes, docs/delivery-and-deliverability.md). */
export class SendingDomains1764345600000 implements MigrationInterface {
  name = 'SendingDomains1764345600000';

  async up(db: QueryRunner): Promise<void> {
    // private_key is AES-256-GCM ciphertext (DkimKeyCipher); verified_at null means pending.
    await db.query(`
      CREATE TABLE sending_domains (
        id uuid PRIMARY KEY,
        user_id text NOT NULL,
        name text NOT NULL,
        selector text NOT NULL,
        public_key text NOT NULL,
        private_key bytea NOT NULL,
        verified_at timestamptz(3),
        created_at timestamptz(3) NOT NULL,
        CONSTRAINT uq_sending_domains_user_name UNIQUE (user_id, name),
        CONSTRAINT uq_sending_domains_name_selector UNIQUE (name, selector)
      )`);
    // The list's order; the signing look-up at delivery uses the (user_id, name) constraint's index.
    await db.query(`CREATE INDEX ix_sending_domains_user_created ON sending_domains (user_id, created_at, id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE sending_domains`);
  }
}
