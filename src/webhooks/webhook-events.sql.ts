/**
 * The CTE that records, in the statement that changes statuses, the webhook events those changes
 * cause: one per message whose `webhook.status` selects its new status (every status when empty).
 * `moved` must return id, user_id, status, status_changes, webhook_url and webhook_statuses.
 */
export function webhookEventsCte(moved: string): string {
  return `webhook_events_created AS (
    INSERT INTO webhook_events (id, user_id, message_id, sequence, status, url, created_at, next_attempt_at)
    SELECT gen_random_uuid(), user_id, id, status_changes, status, webhook_url, date_trunc('milliseconds', clock_timestamp()),
      date_trunc('milliseconds', clock_timestamp())
    FROM ${moved}
    WHERE webhook_url IS NOT NULL AND (cardinality(webhook_statuses) = 0 OR status = ANY (webhook_statuses))
    RETURNING id, message_id
  )`;
}
