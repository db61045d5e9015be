import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The messages deferred before NextAttemptAt1765036801000 take the start of their waiting retry job,
 * where pg-boss's schema is there already (a new database has none yet). Its own migration, so its
 * own transaction: it row-locks the deferred messages it updates, never the whole table.
 */
export class NextAttemptAtBackfill1765036802000 implements MigrationInterface {
  name = 'NextAttemptAtBackfill1765036802000';

  async up(db: QueryRunner): Promise<void> {
    const [{ jobs }] = (await db.query(`SELECT to_regclass('pgboss.job')::text AS jobs`)) as { jobs: string | null }[];
    if (jobs === null) return;
    // The retry job is the one for the attempt after the last (DeliveryRecorder queues it with the
    // deferral); a first attempt's job is no retry.
    await db.query(`
      UPDATE messages m SET next_attempt_at = date_trunc('milliseconds', j.start_after)
      FROM (
        SELECT (data ->> 'messageId')::uuid AS message_id, (data ->> 'attempt')::int AS attempt, min(start_after) AS start_after
        FROM pgboss.job
        WHERE name = 'message-delivery' AND state IN ('created', 'retry') AND (data ->> 'attempt')::int >= 2
        GROUP BY 1, 2
      ) j
      WHERE m.status = 'deferred' AND j.message_id = m.id AND j.attempt = m.delivery_attempts + 1`);
  }

  async down(): Promise<void> {
    // The column goes with NextAttemptAt1765036801000's down.
  }
}
