import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../platform/database/database';
import { MessageEventStore } from './message-event-store';
import type { MessageStatus } from './message-status';

/** The statements of the messages context's periodic jobs: count compaction and retention. */
@Injectable()
export class MessageUpkeepRepository {
  constructor(
    private readonly database: Database,
    private readonly events: MessageEventStore,
  ) {}

  /**
   * Adds up to `batch` pending count changes into message_counts (and deletes them), in the
   * caller's transaction; returns how many. Raw: one statement moves the batch (delete, sum,
   * upsert), which TypeORM cannot say.
   */
  async compactCounts(manager: EntityManager, batch: number): Promise<number> {
    const [{ compacted }]: { compacted: number }[] = await manager.query(
      `WITH moved AS (
         DELETE FROM message_count_changes
         WHERE id IN (SELECT id FROM message_count_changes ORDER BY id LIMIT ${batch})
         RETURNING user_id, dimension, value, status, delta
       ), added AS (
         INSERT INTO message_counts AS c (user_id, dimension, value, status, n)
         SELECT user_id, dimension, value, status, sum(delta) FROM moved GROUP BY 1, 2, 3, 4
         ON CONFLICT (user_id, dimension, value, status) DO UPDATE SET n = c.n + excluded.n
       )
       SELECT count(*)::int AS compacted FROM moved`,
    );
    return compacted;
  }

  /**
   * Deletes up to `limit` messages of `statuses` sent from `from` (when given) to before `before`,
   * oldest first, in the caller's transaction; returns how many and the sentAt of the newest.
   * Raw: one statement picks (oldest first, through ix_messages_sent) and deletes. SKIP LOCKED: a
   * message a worker or a report is changing right now is left for the next run. A message with a
   * webhook still to post keeps it (and its event) until it is posted or given up (the webhooks
   * context says which: MessageEventStore).
   */
  async purgeSent(
    manager: EntityManager,
    { before, from, statuses, limit }: { before: Date; from?: Date; statuses: MessageStatus[]; limit: number },
  ): Promise<{ deleted: number; last?: Date }> {
    const [{ deleted, last }]: { deleted: number; last: Date | null }[] = await manager.query(
      `WITH gone AS (
         DELETE FROM messages WHERE id IN (
           SELECT m.id FROM messages m
           WHERE m.sent_at < $1 AND ($2::timestamptz IS NULL OR m.sent_at >= $2) AND m.status = ANY($3)
             AND NOT ${this.events.pendingOfSql('m.id')}
           ORDER BY m.sent_at
           LIMIT $4
           FOR UPDATE SKIP LOCKED)
         RETURNING sent_at)
       SELECT count(*)::int AS deleted, max(sent_at) AS last FROM gone`,
      [before, from ?? null, statuses, limit],
    );
    return { deleted, last: last ?? undefined };
  }

  /** Deletes the kept counts that count nothing; returns how many. Raw, like the compactor's statements on this table. */
  async deleteZeroCounts(): Promise<number> {
    const [, deleted]: [unknown, number] = await this.database.query(`DELETE FROM message_counts WHERE n = 0`);
    return deleted;
  }

  /** Which of the given message ids still exist: for the queue's sweep of jobs whose message is gone. */
  async liveIds(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows: { id: string }[] = await this.database.query(`SELECT id FROM messages WHERE id = ANY($1::uuid[])`, [
      ids,
    ]);
    return rows.map((row) => row.id);
  }
}
