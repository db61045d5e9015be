import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a deferred message's next delivery attempt is due (the Message's `nextAttemptAt`): written
 * by the statement that defers it and cleared by every other change, so that the message list reads
 * it from the row rather than joining pg-boss's job table. Messages deferred before take it from
 * their waiting retry job, where pg-boss's schema is there already (a new database has none yet).
 */
export class NextAttemptAt1765036801000 implements MigrationInterface {
  name = 'NextAttemptAt1765036801000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages ADD COLUMN next_attempt_at timestamptz(3)`);
    const [{ jobs }] = (await db.query(`SELECT to_regclass('pgboss.job')::text AS jobs`)) as { jobs: string | null }[];
    if (jobs === null) return;
    // The retry job is the one for the attempt after the last (DeliveryRecorder queues it with the deferral).
    await db.query(`
      UPDATE messages m SET next_attempt_at = date_trunc('milliseconds', j.start_after)
      FROM (
        SELECT (data ->> 'messageId')::uuid AS message_id, (data ->> 'attempt')::int AS attempt, min(start_after) AS start_after
        FROM pgboss.job WHERE name = 'message-delivery' AND state IN ('created', 'retry')
        GROUP BY 1, 2
      ) j
      WHERE m.status = 'deferred' AND j.message_id = m.id AND j.attempt = m.delivery_attempts + 1`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE messages DROP COLUMN next_attempt_at`);
  }
}
