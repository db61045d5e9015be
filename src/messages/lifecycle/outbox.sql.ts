import type { Database } from '../../platform/database/database';
/**
 * The outbox writer's SQL (docs/delivery-and-deliverability.md#webhooks): CTE fragments that a change's own statement includes, so
 * that its events are written with it, one `webhook_events` row per event and target (a message's
 * own webhook, each enabled endpoint of its owner that subscribes to the type). When nobody
 * subscribes, the INSERT's SELECT finds no row and writes nothing.
 */

/** What the message event CTEs read of each changed message, besides its id. */
export const OUTBOX_READS = [
  'user_id',
  'status',
  'status_changes',
  'webhook_url',
  'webhook_statuses',
  'recipient_fates',
] as const;

/**
 * The moment of an event, drawn once per event in a materialized CTE, so that every target's row
 * of it records the same `created_at` (its payload's `timestamp`): clock_timestamp() per inserted
 * row would give one event as many moments as it has targets.
 */
export const NOW_MS = `date_trunc('milliseconds', clock_timestamp())`;

/**
 * Key-share locks the endpoints a fan-out writes deliveries for. The statement's snapshot may
 * still show an endpoint whose DELETE commits while the statement runs; its foreign-key check
 * would then find the endpoint gone and fail the whole change (a send answered 500, a claim left
 * to its lease). Locked in the SELECT, such an endpoint is waited for and then skipped (READ
 * COMMITTED re-checks a locked row, and a deleted one drops out), and a DELETE that comes later
 * waits for the change to commit and removes its deliveries with the endpoint (ON DELETE CASCADE).
 * It costs nothing new: the foreign-key check takes this very lock on every row it inserts.
 */
export const LOCK_ENDPOINTS = 'FOR KEY SHARE OF e';

/**
 * The enabled endpoints of user `userId` (SQL) subscribing to event type `type` (SQL): an empty
 * `events` means every type. Key-share locked (LOCK_ENDPOINTS).
 */
export function subscribersSql(userId: string, type: string): string {
  return `SELECT e.id, e.url FROM webhook_endpoints e
    WHERE e.user_id = ${userId} AND e.enabled AND (cardinality(e.events) = 0 OR ${type} = ANY (e.events))
    ${LOCK_ENDPOINTS}`;
}

/**
 * The CTEs `message_events` and `outbox` for message and recipient events of one statement.
 * `changed`: the changed messages (id and OUTBOX_READS, as they stand after the change);
 * `messageEvents`: whether each changed message entered its status (a `message.<status>` event);
 * `recipientChanges`: a query of (message_id, position, status) rows, recipients that got a fate
 * of RECIPIENT_EVENT_STATUSES (one per recipient), each of a message in `changed`.
 * `outbox` returns the rows' id and message_id; the caller queues their jobs.
 */
export function messageOutboxCte(changed: string, messageEvents: boolean, recipientChanges?: string): string {
  const sources = [
    messageEvents &&
      `SELECT c.id AS message_id, c.user_id, 'message.' || c.status AS type, c.status, c.status_changes, c.recipient_fates,
        NULL::jsonb AS data,
        CASE WHEN c.webhook_url IS NOT NULL AND (cardinality(c.webhook_statuses) = 0 OR c.status = ANY (c.webhook_statuses))
          THEN c.webhook_url END AS own_url
      FROM ${changed} c`,
    recipientChanges &&
      `SELECT c.id AS message_id, c.user_id, 'recipient.' || r.status AS type, c.status, c.status_changes, c.recipient_fates,
        jsonb_build_object('position', r.position) AS data, NULL::text AS own_url
      FROM (${recipientChanges}) r JOIN ${changed} c ON c.id = r.message_id`,
  ].filter(Boolean);
  // Materialized, so that each event's id and moment are drawn once and shared by all its targets (webhook-id).
  return `message_events AS MATERIALIZED (
    SELECT gen_random_uuid() AS event_id, ${NOW_MS} AS created_at, s.* FROM (${sources.join(' UNION ALL ')}) s
  ), outbox AS (
    INSERT INTO webhook_events (id, event_id, endpoint_id, type, user_id, message_id, sequence, status, url, created_at,
      next_attempt_at, recipient_fates, data)
    SELECT CASE WHEN t.endpoint_id IS NULL THEN ev.event_id ELSE gen_random_uuid() END, ev.event_id, t.endpoint_id, ev.type,
      ev.user_id, ev.message_id, ev.status_changes, ev.status, t.url, ev.created_at, ev.created_at, ev.recipient_fates, ev.data
    FROM message_events ev CROSS JOIN LATERAL (
      SELECT NULL::uuid AS endpoint_id, ev.own_url AS url WHERE ev.own_url IS NOT NULL
      UNION ALL SELECT s.id, s.url FROM (${subscribersSql('ev.user_id', 'ev.type')}) s
    ) t
    RETURNING id, message_id
  )`;
}

/** The outbox rows of the statement per message (after messageOutboxCte), as `outbox_event_ids`, for a LEFT JOIN ON message_id. */
export const OUTBOX_IDS_BY_MESSAGE = `(SELECT message_id, array_agg(id) AS outbox_event_ids FROM outbox GROUP BY message_id)`;

/** Whether the message `messageId` (SQL) has an event still to post: message retention keeps such a message. */
export function pendingEventOfSql(messageId: string): string {
  return `EXISTS (SELECT 1 FROM webhook_events e WHERE e.message_id = ${messageId} AND e.state = 'pending')`;
}

/**
 * Which of the given event ids still exist, for the queue's sweep of jobs whose event is gone: messages'
 * retention deletes events with their message, and webhooks' own retention its account events.
 */
export async function liveEventIds(database: Database, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows: { id: string }[] = await database.query(`SELECT id FROM webhook_events WHERE id = ANY($1::uuid[])`, [
    ids,
  ]);
  return rows.map((row) => row.id);
}
