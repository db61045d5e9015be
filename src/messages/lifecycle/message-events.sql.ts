import type { EventFanOut } from './event-fan-out';

/**
 * The message and recipient events of a change (docs/delivery-and-deliverability.md#webhooks), as
 * CTE fragments that the change's own statement includes: this context says which events a change
 * causes, and the webhooks context writes them for their targets (EventFanOut), in the same
 * statement, so that none is lost or invented.
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
const NOW_MS = `date_trunc('milliseconds', clock_timestamp())`;

/**
 * The CTEs `message_events` and `outbox` (EventFanOut's, from `message_events`) for message and
 * recipient events of one statement.
 * `changed`: the changed messages (id and OUTBOX_READS, as they stand after the change);
 * `messageEvents`: whether each changed message entered its status (a `message.<status>` event);
 * `recipientChanges`: a query of (message_id, position, status) rows, recipients that got a fate
 * of RECIPIENT_EVENT_STATUSES (one per recipient), each of a message in `changed`.
 * `outbox` returns the rows' id and message_id; the caller queues their jobs.
 */
export function messageOutboxCte(
  fanOut: EventFanOut,
  changed: string,
  messageEvents: boolean,
  recipientChanges?: string,
): string {
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
  ), ${fanOut.cte('outbox', 'message_events')}`;
}

/** The outbox rows of the statement per message (after messageOutboxCte), as `outbox_event_ids`, for a LEFT JOIN ON message_id. */
export const OUTBOX_IDS_BY_MESSAGE = `(SELECT message_id, array_agg(id) AS outbox_event_ids FROM outbox GROUP BY message_id)`;
