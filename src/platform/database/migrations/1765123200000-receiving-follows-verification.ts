import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Receiving follows verification (docs/inbound.md, issue 33): a domain that goes back to pending stops
 * receiving, and says why in `receiving_stopped`. A nullable column without a default is a catalog
 * change; the pending domains that received until now stop as a later check would have stopped them.
 */
export class ReceivingFollowsVerification1765123200000 implements MigrationInterface {
  name = 'ReceivingFollowsVerification1765123200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sending_domains ADD COLUMN receiving_stopped text`);
    await db.query(
      `UPDATE sending_domains SET receiving = false,
         receiving_stopped = 'The domain is pending: verify it again, then turn receiving on.'
       WHERE receiving AND verified_at IS NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE sending_domains DROP COLUMN receiving_stopped`);
  }
}
