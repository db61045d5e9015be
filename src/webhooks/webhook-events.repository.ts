import type { RecipientFate } from '../messages/recipient-fates';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { MessageStatus } from '../messages/message-status';
import { Database } from '../database/database';
import { WebhookEventEntity } from './entities/webhook-event.entity';

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

/** An event as its delivery reads it: with the message's recipients as they stood at the change. */
export interface DeliverableWebhookEvent extends WebhookEventRow {
  /** Null for an event recorded before recipients had fates. */
  recipient_fates: RecipientFate[] | null;
}

export interface WebhookAttemptRow {
  event_id: string;
  attempted_at: Date;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

const EVENT_COLUMNS = 'id, user_id, message_id, sequence, status, url, state, attempts, next_attempt_at, created_at';

/**
 * The webhook outbox: one event per status change a webhook asked for, each with its attempts
 * (one POST each). Reads for the API take the owner's id.
 */
@Injectable()
export class WebhookEventsRepository {
  constructor(private readonly database: Database) {}

  /** For the worker, which acts for whoever owns the event. */
  async getForDelivery(id: string): Promise<DeliverableWebhookEvent | undefined> {
    // Raw: every webhook attempt reads it, so it skips TypeORM's entity mapping.
    const rows: DeliverableWebhookEvent[] = await this.database.query(
      `SELECT ${EVENT_COLUMNS}, recipient_fates FROM webhook_events WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  count(userId: string, messageId?: string): Promise<number> {
    return this.database
      .repository(WebhookEventEntity)
      .countBy({ userId, ...(messageId !== undefined && { messageId }) });
  }

  /**
   * Newest first, each event with its attempts, oldest first: read in one statement, so that an
   * event and its attempts are seen as of the same moment (an attempt is being logged meanwhile).
   */
  async list(
    userId: string,
    messageId: string | undefined,
    skip: number,
    take: number,
  ): Promise<(WebhookEventRow & { attempt_log: WebhookAttemptRow[] })[]> {
    // Raw: TypeORM would read the events and their attempts in two statements, at two moments.
    const rows: (WebhookEventRow & {
      attempt_log: (Omit<WebhookAttemptRow, 'attempted_at'> & { attempted_at: string })[];
    })[] = await this.database.query(
      `SELECT ${EVENT_COLUMNS}, COALESCE((
           SELECT json_agg(json_build_object('event_id', a.event_id, 'attempted_at', a.attempted_at, 'status_code', a.status_code,
             'duration_ms', a.duration_ms, 'error', a.error) ORDER BY a.id)
           FROM webhook_attempts a WHERE a.event_id = e.id), '[]') AS attempt_log
         FROM webhook_events e WHERE user_id = $1 AND ($2::uuid IS NULL OR message_id = $2)
         ORDER BY created_at DESC, id DESC OFFSET $3 LIMIT $4`,
      [userId, messageId ?? null, skip, take],
    );
    return rows.map((row) => ({
      ...row,
      attempt_log: row.attempt_log.map((a) => ({ ...a, attempted_at: new Date(a.attempted_at) })),
    }));
  }

  async recordAttempt(
    manager: EntityManager,
    eventId: string,
    attempt: { attemptedAt: Date; statusCode?: number; durationMs: number; error?: string },
    state: WebhookState,
    nextAttemptAt: Date | null,
  ): Promise<void> {
    // Raw: one statement for the attempt and its event's new state, on every attempt's path.
    await manager.query(
      `WITH attempt AS (
         INSERT INTO webhook_attempts (event_id, attempted_at, status_code, duration_ms, error) VALUES ($1, $2, $3, $4, $5)
       )
       UPDATE webhook_events SET state = $6, attempts = attempts + 1, next_attempt_at = $7 WHERE id = $1`,
      [
        eventId,
        attempt.attemptedAt,
        attempt.statusCode ?? null,
        attempt.durationMs,
        attempt.error ?? null,
        state,
        nextAttemptAt,
      ],
    );
  }

  /**
   * Makes an event of this user's pending again. 'queued': it was not pending, so it needs a job;
   * 'already': it is pending, its job is on the queue; 'missing': no such event of this user.
   */
  async markForReplay(manager: EntityManager, userId: string, id: string): Promise<'queued' | 'already' | 'missing'> {
    const events = manager.getRepository(WebhookEventEntity);
    const before = await events.findOne({
      select: { id: true, state: true },
      where: { userId, id },
      lock: { mode: 'pessimistic_write' },
    });
    if (!before) return 'missing';
    if (before.state === 'pending') return 'already';
    await events.update({ id }, { state: 'pending', nextAttemptAt: () => 'clock_timestamp()' });
    return 'queued';
  }
}
