import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each owner last wrote, for reads that must see their own writes however far a replica
 * lags (docs/scaling.md#read-replicas). UNLOGGED: a crash forgets seconds-old marks, after which
 * reads are as the lag rule alone sends them; and an unlogged table costs no WAL, which the
 * replicas would only replay to no use (they cannot read it).
 */
export class RecentWrites1765900800000 implements MigrationInterface {
  name = 'RecentWrites1765900800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE UNLOGGED TABLE recent_writes (owner_id text PRIMARY KEY, written_at timestamptz NOT NULL)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE recent_writes`);
  }
}
