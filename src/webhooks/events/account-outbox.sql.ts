import type { AccountEvent } from './event-types';
import { LOCK_ENDPOINTS, subscribersSql } from './fan-out.sql';

/**
 * An event's moment, drawn once per event in the materialized `given`, so that every target's row
 * records the same `created_at` (its payload's `timestamp`), as messages draws its events' own.
 */
const NOW_MS = `date_trunc('milliseconds', clock_timestamp())`;

/**
 * The statement that writes account events ($1: accountOutboxEvents', a JSON array of {event_id,
 * user_id, type, data, endpoint_id}) for their subscribers, or only for `endpoint_id` when given
 * (enabled or not: the caller decided). Returns the rows' ids.
 */
export const ACCOUNT_OUTBOX_SQL = `WITH given AS MATERIALIZED (
    SELECT g.*, ${NOW_MS} AS created_at FROM jsonb_to_recordset($1::jsonb) AS g(event_id uuid, user_id text, type text, data jsonb, endpoint_id uuid)
  )
  INSERT INTO webhook_events (id, event_id, endpoint_id, type, user_id, url, created_at, next_attempt_at, data)
  SELECT gen_random_uuid(), g.event_id, t.id, g.type, g.user_id, t.url, g.created_at, g.created_at, g.data
  FROM given g CROSS JOIN LATERAL (
    SELECT s.id, s.url FROM (
      SELECT e.id, e.url FROM webhook_endpoints e
      WHERE g.endpoint_id IS NOT NULL AND e.id = g.endpoint_id AND e.user_id = g.user_id ${LOCK_ENDPOINTS}
    ) s
    UNION ALL SELECT s.id, s.url FROM (${subscribersSql('g.user_id', 'g.type')}) s WHERE g.endpoint_id IS NULL
  ) t
  RETURNING id`;

/** ACCOUNT_OUTBOX_SQL's $1 for events whose ids are drawn: the JSON array, under the names its recordset declares. */
export function accountOutboxEvents(events: (AccountEvent & { id: string })[]): string {
  return JSON.stringify(
    events.map(({ id, userId, type, data, endpointId }) => ({
      event_id: id,
      user_id: userId,
      type,
      data,
      endpoint_id: endpointId ?? null,
    })),
  );
}
