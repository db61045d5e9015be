import type { RecipientFate } from '../messages';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { MessageEventStore, MessageStatus } from '../messages';
import { Database } from '../platform/database/database';
import { WebhookEventEntity } from './entities/webhook-event.entity';
import type { WebhookState } from './webhook-state';

export interface WebhookEventRow {
  id: string;
  /** Null: recorded before endpoints; the event's id is `id` (eventIdOf). */
  eventId: string | null;
  /** Null: recorded before endpoints, `message.<status>` (eventTypeOf). */
  type: string | null;
  endpointId: string | null;
  userId: string;
  /** Null for account events. */
  messageId: string | null;
  sequence: number | null;
  status: MessageStatus | null;
  url: string;
  state: WebhookState;
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** An event as its delivery reads it: with the message's recipients as they stood at the change. */
export interface DeliverableWebhookEvent extends WebhookEventRow {
  /** Null for an event recorded before recipients had fates. */
  recipientFates: RecipientFate[] | null;
  data: object | null;
}

/** The event's id: the `webhook-id` of every target and attempt. */
export const eventIdOf = (row: Pick<WebhookEventRow, 'id' | 'eventId'>): string => row.eventId ?? row.id;

export const eventTypeOf = (row: Pick<WebhookEventRow, 'type' | 'status'>): string =>
  row.type ?? `message.${row.status}`;

/** What the delivery log filters by (docs/delivery-and-deliverability.md#webhooks). */
export interface DeliveryFilter {
  messageId?: string;
  endpointId?: string;
  type?: string;
}

// Each filter is null or applies; an older row's type is `message.<status>`.
const FILTER = `user_id = $1 AND ($2::uuid IS NULL OR message_id = $2) AND ($3::uuid IS NULL OR endpoint_id = $3)
  AND ($4::text IS NULL OR coalesce(type, 'message.' || status) = $4)`;
const filterParameters = (userId: string, filter: DeliveryFilter) => [
  userId,
  filter.messageId ?? null,
  filter.endpointId ?? null,
  filter.type ?? null,
];

export interface WebhookAttemptRow {
  eventId: string;
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** Read by getForUser only. */
  responseBody?: string | null;
}

/** An event's attempts as one JSON array, oldest first (read in the event's statement: one moment for both). */
const attemptLog = (withBodies: boolean) => `COALESCE((
    SELECT json_agg(json_build_object('eventId', a.event_id, 'attemptedAt', a.attempted_at, 'statusCode', a.status_code,
      'durationMs', a.duration_ms, 'error', a.error${withBodies ? `, 'responseBody', a.response_body` : ''}) ORDER BY a.id)
    FROM webhook_attempts a WHERE a.event_id = e.id), '[]')`;

type LoggedEventRow = WebhookEventRow & {
  attemptLog: (Omit<WebhookAttemptRow, 'attemptedAt'> & { attemptedAt: string })[];
};

const withAttemptDates = <R extends LoggedEventRow>(row: R) => ({
  ...row,
  attemptLog: row.attemptLog.map((a) => ({ ...a, attemptedAt: new Date(a.attemptedAt) })),
});

/** A WebhookEventRow's columns, each under its property name. */
const EVENT_COLUMNS = `id, event_id AS "eventId", type, endpoint_id AS "endpointId", user_id AS "userId",
  message_id AS "messageId", sequence, status, url, state, attempts, next_attempt_at AS "nextAttemptAt", created_at AS "createdAt"`;

/**
 * The webhook outbox: one event per status change a webhook asked for, each with its attempts
 * (one POST each). Reads for the API take the owner's id. Message retention asks it about the
 * events of messages (MessageEventStore, the messages context's port).
 */
@Injectable()
export class WebhookEventsRepository implements MessageEventStore {
  constructor(private readonly database: Database) {}

  /** For the worker, which acts for whoever owns the event. */
  async getForDelivery(id: string): Promise<DeliverableWebhookEvent | undefined> {
    // Raw: every webhook attempt reads it, so it skips TypeORM's entity mapping.
    const rows: DeliverableWebhookEvent[] = await this.database.query(
      `SELECT ${EVENT_COLUMNS}, recipient_fates AS "recipientFates", data FROM webhook_events WHERE id = $1`,
      [id],
    );
    return rows[0];
  }

  /** Whose each event is and where it goes (its endpoint, or a message's own webhook URL), for the worker's fair turns. */
  async targetsOf(ids: string[]): Promise<Map<string, { userId: string; target: string }>> {
    const rows: { id: string; user_id: string; target: string }[] = await this.database.query(
      `SELECT id, user_id, coalesce(endpoint_id::text, url) AS target FROM webhook_events WHERE id = ANY ($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, { userId: row.user_id, target: row.target }]));
  }

  async count(userId: string, filter: DeliveryFilter): Promise<number> {
    const [row]: { count: string }[] = await this.database.query(
      `SELECT count(*) FROM webhook_events WHERE ${FILTER}`,
      filterParameters(userId, filter),
    );
    return Number(row.count);
  }

  /**
   * Newest first, each event with its attempts, oldest first: read in one statement, so that an
   * event and its attempts are seen as of the same moment (an attempt is being logged meanwhile).
   */
  async list(
    userId: string,
    filter: DeliveryFilter,
    skip: number,
    take: number,
  ): Promise<(WebhookEventRow & { attemptLog: WebhookAttemptRow[] })[]> {
    // Raw: TypeORM would read the events and their attempts in two statements, at two moments.
    const rows: LoggedEventRow[] = await this.database.query(
      `SELECT ${EVENT_COLUMNS}, ${attemptLog(false)} AS "attemptLog"
         FROM webhook_events e WHERE ${FILTER}
         ORDER BY created_at DESC, id DESC OFFSET $5 LIMIT $6`,
      [...filterParameters(userId, filter), skip, take],
    );
    return rows.map(withAttemptDates);
  }

  /** One delivery of this user's, as its delivery reads it, with its attempts and their answers' bodies. */
  async getForUser(
    userId: string,
    id: string,
  ): Promise<(DeliverableWebhookEvent & { attemptLog: WebhookAttemptRow[] }) | undefined> {
    const [row]: (LoggedEventRow & DeliverableWebhookEvent)[] = await this.database.query(
      `SELECT ${EVENT_COLUMNS}, recipient_fates AS "recipientFates", data, ${attemptLog(true)} AS "attemptLog"
         FROM webhook_events e WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return row && withAttemptDates(row);
  }

  /**
   * Logs the attempt and sets its delivery's new state; a retry is due `retryAfterSeconds` from now
   * on the database's clock, which the queue starts jobs by. Returns that nextAttemptAt: null
   * without a retry, or when the delivery was deleted meanwhile.
   */
  async recordAttempt(
    manager: EntityManager,
    eventId: string,
    attempt: { attemptedAt: Date; statusCode?: number; durationMs: number; error?: string; responseBody?: string },
    state: WebhookState,
    retryAfterSeconds: number | null,
  ): Promise<Date | null> {
    // Raw: one statement for the attempt and its event's new state, on every attempt's path.
    const [row]: { nextAttemptAt: Date | null }[] = await manager.query(
      // The delivery's row is updated first and the attempt logged from what that returned: a
      // delivery being deleted (its endpoint's or its message's cascade) is waited for, then found
      // gone, and nothing is logged (inserted first, its foreign key would fail on the delete).
      `WITH event AS (
         UPDATE webhook_events SET state = $6, attempts = attempts + 1,
           next_attempt_at = date_trunc('milliseconds', clock_timestamp()) + make_interval(secs => $7::double precision)
         WHERE id = $1 RETURNING id, next_attempt_at
       ), logged AS (
         INSERT INTO webhook_attempts (event_id, attempted_at, status_code, duration_ms, error, response_body)
         SELECT id, $2, $3, $4, $5, $8 FROM event
       )
       SELECT next_attempt_at AS "nextAttemptAt" FROM event`,
      [
        eventId,
        attempt.attemptedAt,
        attempt.statusCode ?? null,
        attempt.durationMs,
        attempt.error ?? null,
        state,
        retryAfterSeconds,
        attempt.responseBody ?? null,
      ],
    );
    return row?.nextAttemptAt ?? null;
  }

  /**
   * Deletes up to `limit` deliveries of account events (those without a message: a message's
   * go with it) created before `before` and no longer pending, oldest first, with their attempts
   * (ON DELETE CASCADE); returns how many. SKIP LOCKED: one an attempt or a replay holds stays
   * for the next run.
   */
  async purgeAccountEvents(before: Date, limit: number): Promise<number> {
    return this.database.rowsChanged(
      `DELETE FROM webhook_events WHERE id IN (
         SELECT id FROM webhook_events
         WHERE message_id IS NULL AND created_at < $1 AND state <> 'pending'
         ORDER BY created_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }

  /** Whether the message `messageId` (SQL) has an event still to post: message retention keeps such a message. */
  pendingOfSql(messageId: string): string {
    return `EXISTS (SELECT 1 FROM webhook_events e WHERE e.message_id = ${messageId} AND e.state = 'pending')`;
  }

  /**
   * Which of the given event ids still exist, for the queue's sweep of jobs whose event is gone:
   * messages' retention deletes events with their message, and webhooks' own retention its account events.
   */
  async liveIds(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows: { id: string }[] = await this.database.query(
      `SELECT id FROM webhook_events WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return rows.map((row) => row.id);
  }

  /** A delivery to an endpoint found disabled: given up without an attempt (docs/delivery-and-deliverability.md#webhooks: it is sent nothing). */
  async skip(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE webhook_events SET state = 'failed', next_attempt_at = NULL WHERE id = $1`, [id]);
  }

  /**
   * Makes an event of this user's pending again. 'queued': it was not pending, so it needs a job;
   * 'already': it is pending, its job is on the queue; 'missing': no such event of this user;
   * 'refused': `mayResend` said no for its endpoint (an endpoint's event only), nothing changed.
   */
  async markForReplay(
    manager: EntityManager,
    userId: string,
    id: string,
    mayResend: (endpointId: string) => Promise<boolean>,
  ): Promise<'queued' | 'already' | 'missing' | 'refused'> {
    const events = manager.getRepository(WebhookEventEntity);
    // The endpoint first (an event's never changes), then the event: the order an attempt's
    // record takes its locks in, so that the two cannot deadlock.
    const target = await events.findOne({ select: { id: true, endpointId: true }, where: { userId, id } });
    if (!target) return 'missing';
    if (target.endpointId !== null && !(await mayResend(target.endpointId))) return 'refused';
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
