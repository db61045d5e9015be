import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { MessageStatus } from '../messages/message-status';

export type WebhookState = 'pending' | 'delivered' | 'failed' | 'gone';

export interface WebhookEventRow {
  id: string;
  user_id: string;
  message_id: string;
  sequence: number;
  status: MessageStatus;
  url: string;
  state: WebhookState;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
}

export interface WebhookAttemptRow {
  event_id: string;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

const EVENT_COLUMNS = 'id, user_id, message_id, sequence, status, url, state, attempts, next_attempt_at, created_at';

/** The webhook outbox and its delivery log. Reads for the API take the owner's id. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** For the dispatcher, which acts for whoever owns the event. */
  async getForDispatch(id: string): Promise<WebhookEventRow | undefined> {
    const rows: WebhookEventRow[] = await this.dataSource.query(`SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE id = $1`, [id]);
    return rows[0];
  }

  async getById(userId: string, id: string): Promise<WebhookEventRow | undefined> {
    const rows: WebhookEventRow[] = await this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return rows[0];
  }

  async count(userId: string, messageId?: string): Promise<number> {
    const [{ count }] = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM webhook_events WHERE user_id = $1 AND ($2::uuid IS NULL OR message_id = $2)`,
      [userId, messageId ?? null],
    );
    return count;
  }

  /** Newest first. */
  async list(userId: string, messageId: string | undefined, skip: number, take: number): Promise<WebhookEventRow[]> {
    return this.dataSource.query(
      `SELECT ${EVENT_COLUMNS} FROM webhook_events WHERE user_id = $1 AND ($2::uuid IS NULL OR message_id = $2)
       ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
      [userId, messageId ?? null, skip, take],
    );
  }

  async attemptsOf(userId: string, eventIds: string[]): Promise<Map<string, WebhookAttemptRow[]>> {
    const byEvent = new Map<string, WebhookAttemptRow[]>(eventIds.map((id) => [id, []]));
    if (eventIds.length === 0) return byEvent;
    const rows: WebhookAttemptRow[] = await this.dataSource.query(
      `SELECT a.event_id, a.attempted_at, a.status_code, a.duration_ms, a.error
       FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id
       WHERE e.user_id = $1 AND a.event_id = ANY($2::uuid[]) ORDER BY a.event_id, a.id`,
      [userId, eventIds],
    );
    for (const row of rows) byEvent.get(row.event_id)!.push(row);
    return byEvent;
  }

  async recordAttempt(
    manager: EntityManager,
    eventId: string,
    attempt: { attemptedAt: Date; statusCode?: number; durationMs: number; error?: string },
    state: WebhookState,
    nextAttemptAt: Date | null,
  ): Promise<void> {
    await manager.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (event_id, attempted_at, status_code, duration_ms, error) VALUES ($1, $2, $3, $4, $5)
       )
       UPDATE webhook_events SET state = $6, attempts = attempts + 1, next_attempt_at = $7 WHERE id = $1`,
      [eventId, attempt.attemptedAt, attempt.statusCode ?? null, attempt.durationMs, attempt.error ?? null, state, nextAttemptAt],
    );
  }

  /** Makes an event of this user's pending again; false when there is no such event. */
  async markForReplay(manager: EntityManager, userId: string, id: string): Promise<boolean> {
    const rows = await manager.query(
      `UPDATE webhook_events SET state = 'pending', next_attempt_at = clock_timestamp() WHERE user_id = $1 AND id = $2 RETURNING id`,
      [userId, id],
    );
    return rows[0].length === 1;
  }
}
