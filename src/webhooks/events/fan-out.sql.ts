import type { EventFanOut } from '../../messages';

/**
 * The fan-out's SQL (docs/delivery-and-deliverability.md#webhooks): an event's producer describes its
 * events in its own statement, and these pieces write them for their targets in that statement, one
 * `webhook_events` row per event and target (a message's own webhook, each enabled endpoint of its
 * owner that subscribes to the type). When nobody subscribes, the INSERT's SELECT finds no row and
 * writes nothing.
 */

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
 * The messages context's EventFanOut: the CTE `name` that writes the message and recipient events
 * of the CTE `events` (as EventFanOut describes it) for the message's own webhook and each
 * subscribing endpoint, and returns the rows' id and message_id.
 */
export const MESSAGE_FAN_OUT: EventFanOut = {
  cte: (name, events) => `${name} AS (
    INSERT INTO webhook_events (id, event_id, endpoint_id, type, user_id, message_id, sequence, status, url, created_at,
      next_attempt_at, recipient_fates, data)
    SELECT CASE WHEN t.endpoint_id IS NULL THEN ev.event_id ELSE gen_random_uuid() END, ev.event_id, t.endpoint_id, ev.type,
      ev.user_id, ev.message_id, ev.status_changes, ev.status, t.url, ev.created_at, ev.created_at, ev.recipient_fates, ev.data
    FROM ${events} ev CROSS JOIN LATERAL (
      SELECT NULL::uuid AS endpoint_id, ev.own_url AS url WHERE ev.own_url IS NOT NULL
      UNION ALL SELECT s.id, s.url FROM (${subscribersSql('ev.user_id', 'ev.type')}) s
    ) t
    RETURNING id, message_id
  )`,
};
