import { MigrationInterface, QueryRunner } from 'typeorm';

export class RateLimitCounters1764000002000 implements MigrationInterface {
  name = 'RateLimitCounters1764000002000';

  async up(db: QueryRunner): Promise<void> {
    // UNLOGGED: counters that a database crash may lose at no cost, written without WAL (the entity cannot say so).
    await db.query(`
      CREATE UNLOGGED TABLE rate_limit_counters (
        key text PRIMARY KEY,
        hits integer NOT NULL,
        window_ends_at timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE rate_limit_counters`);
  }
}
