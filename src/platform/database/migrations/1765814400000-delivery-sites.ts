import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Direct delivery's shaping, shared by every worker process
 * (docs/delivery-and-deliverability.md#direct-delivery): each destination site's pace, and the
 * leases of the connections open to it. UNLOGGED (the entities cannot say so): a database crash
 * loses only paces and leases, which start again from the configured limits, at no cost in WAL
 * for a write each connection makes.
 */
export class DeliverySites1765814400000 implements MigrationInterface {
  name = 'DeliverySites1765814400000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `CREATE UNLOGGED TABLE delivery_sites (
        site text PRIMARY KEY,
        connection_limit integer NOT NULL,
        concurrency integer NOT NULL,
        paused_until timestamptz,
        last_slowed_at timestamptz
      )`,
    );
    await db.query(
      `CREATE UNLOGGED TABLE delivery_site_leases (
        id uuid PRIMARY KEY,
        site text NOT NULL,
        holder text NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    );
    // Each grant counts its site's live leases.
    await db.query(`CREATE INDEX ix_delivery_site_leases_site ON delivery_site_leases (site, expires_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE delivery_site_leases`);
    await db.query(`DROP TABLE delivery_sites`);
  }
}
