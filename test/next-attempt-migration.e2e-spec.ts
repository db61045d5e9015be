// The migrations that add the Message's nextAttemptAt: a message deferred before them takes the start
// of its waiting retry job (pg-boss's own schema, made by pg-boss), every other message null.
import PgBoss from 'pg-boss';
import { MIGRATIONS } from '../src/database/data-source-options';
import { NextAttemptAt1765036801000 } from '../src/database/migrations/1765036801000-next-attempt-at';
import { NextAttemptAtBackfill1765036802000 } from '../src/database/migrations/1765036802000-next-attempt-at-backfill';
import { DELIVERY_QUEUE } from '../src/queue/delivery-queue';
import { scratchDatabase } from './support/scratch-database';

const SENDER = '00000000-0000-4000-8000-000000000001';
const DEFERRED = '00000000-0000-4000-8000-0000000000d1';
const SENT = '00000000-0000-4000-8000-0000000000a1';

describe('migrations NextAttemptAt1765036801000 and NextAttemptAtBackfill1765036802000', () => {
  const { migratedTo, url } = scratchDatabase('next_attempt_migration');

  it("gives a message deferred before it its retry job's start, and every other message null", async () => {
    expect(MIGRATIONS.indexOf(NextAttemptAtBackfill1765036802000)).toBe(
      MIGRATIONS.indexOf(NextAttemptAt1765036801000) + 1,
    );
    const old = await migratedTo(MIGRATIONS.slice(0, MIGRATIONS.indexOf(NextAttemptAt1765036801000)));
    await old.runMigrations();
    await old.query(`INSERT INTO senders (id, user_id, email) VALUES ($1, 'u1', 'a@example.com')`, [SENDER]);
    await old.query(
      `INSERT INTO messages (id, user_id, sender_id, sender, recipients, subject, html, status, priority, sent_at, updated_at, delivery_attempts)
       VALUES ($2, 'u1', $1, 'a@example.com', ARRAY['r@example.com'], 's', 'h', 'deferred', 'normal', now(), now(), 1),
              ($3, 'u1', $1, 'a@example.com', ARRAY['r@example.com'], 's', 'h', 'sent', 'normal', now(), now(), 1)`,
      [SENDER, DEFERRED, SENT],
    );
    await old.destroy();
    // The deferred message's retry, as DeliveryRecorder queues it: attempt 2, five minutes off.
    const boss = new PgBoss({ connectionString: url, schema: 'pgboss', schedule: false, supervise: false });
    await boss.start();
    await boss.createQueue(DELIVERY_QUEUE);
    await boss.send(DELIVERY_QUEUE, { messageId: DEFERRED, attempt: 2 }, { startAfter: 300 });
    await boss.stop({ graceful: false });

    const current = await migratedTo(MIGRATIONS);
    try {
      await current.runMigrations();
      const [job] = await current.query(
        `SELECT date_trunc('milliseconds', start_after) AS start FROM pgboss.job WHERE data ->> 'messageId' = $1`,
        [DEFERRED],
      );
      expect(await current.query(`SELECT id, next_attempt_at FROM messages ORDER BY status`, [])).toEqual([
        { id: DEFERRED, next_attempt_at: job.start },
        { id: SENT, next_attempt_at: null },
      ]);
      expect((job.start as Date).getTime() - Date.now()).toBeGreaterThan(240_000);
    } finally {
      await current.destroy();
    }
  });
});
