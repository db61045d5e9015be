import { countsAttempt, fixedTarget, guardSql, TransitionName } from './transitions';

/** What the outbox CTE reads of each changed message, besides its id. */
export const OUTBOX_READS = ['user_id', 'status', 'status_changes', 'webhook_url', 'webhook_statuses'] as const;

/**
 * The CTE `outbox` that records, in the statement that changes statuses, the webhook events
 * those changes cause: one per message whose `webhook.status` selects its new status (every
 * status when empty). `changed` must return id and OUTBOX_READS.
 */
export function outboxCte(changed: string): string {
  return `outbox AS (
    INSERT INTO webhook_events (id, user_id, message_id, sequence, status, url, created_at, next_attempt_at)
    SELECT gen_random_uuid(), user_id, id, status_changes, status, webhook_url, date_trunc('milliseconds', clock_timestamp()),
      date_trunc('milliseconds', clock_timestamp())
    FROM ${changed}
    WHERE webhook_url IS NOT NULL AND (cardinality(webhook_statuses) = 0 OR status = ANY (webhook_statuses))
    RETURNING id, message_id
  )`;
}

/**
 * The one statement of an event's status changes, for a batch: the guarded UPDATE, the history
 * entries and the outbox rows. Parameters: $1 message ids, $2 attempts, $3 target statuses (for
 * events with several), $4 history details, $5 the recipients per-recipient events name. `returning` adds columns of the changed message
 * (`m`), by output name, for callers that need them in the same round trip.
 */
export function transitionSql(name: TransitionName, returning: Record<string, string> = {}): string {
  const fixed = fixedTarget(name);
  const extra = Object.entries(returning);
  return `WITH change AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[]) AS c(message_id, attempt, status, detail, recipient)
  ), moved AS (
    UPDATE messages m SET status = ${fixed ? `'${fixed}'` : 'c.status'},${countsAttempt(name) ? ' delivery_attempts = c.attempt,' : ''}
      status_changes = m.status_changes + 1, updated_at = clock_timestamp()
    FROM change c
    WHERE m.id = c.message_id AND (${guardSql(name)})
    RETURNING m.id, c.attempt, c.detail, c.recipient, ${OUTBOX_READS.map((column) => `m.${column}`).join(', ')}${extra.map(([as, sql]) => `, ${sql} AS "${as}"`).join('')}
  ), history AS (
    INSERT INTO message_status_events (message_id, status, at, detail, recipient)
    SELECT id, status, date_trunc('milliseconds', clock_timestamp()), detail, recipient FROM moved
  ), ${outboxCte('moved')}
  SELECT moved.id, moved.user_id AS "userId", moved.status, moved.attempt${extra.map(([as]) => `, moved."${as}"`).join('')},
    outbox.id AS outbox_event_id
  FROM moved LEFT JOIN outbox ON outbox.message_id = moved.id`;
}
