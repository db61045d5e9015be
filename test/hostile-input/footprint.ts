import type { DataSource } from 'typeorm';
import { rowsOwnedBy } from '../support/factories';

/** Everything a send can write for a user, and queue jobs since `since` that point at nothing (a half-written send). */
export async function footprint(db: DataSource, userId: string, since: Date): Promise<Record<string, number>> {
  const [rows, [queue]] = await Promise.all([
    rowsOwnedBy(db, userId),
    db.query(
      `SELECT
         (SELECT count(*)::int FROM webhook_events WHERE user_id = $1) AS "webhookEvents",
         (SELECT count(*)::int FROM pgboss.job WHERE name = 'message-delivery'
            AND data->>'messageId' IN (SELECT id::text FROM messages WHERE user_id = $1)) AS "deliveryJobs",
         (SELECT count(*)::int FROM pgboss.job WHERE name = 'webhook-delivery'
            AND data->>'eventId' IN (SELECT id::text FROM webhook_events WHERE user_id = $1)) AS "webhookJobs",
         (SELECT count(*)::int FROM pgboss.job j WHERE j.created_on >= $2 AND (
            (j.name = 'message-delivery' AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = (j.data->>'messageId')::uuid))
            OR (j.name = 'webhook-delivery' AND NOT EXISTS (SELECT 1 FROM webhook_events w WHERE w.id = (j.data->>'eventId')::uuid))
         )) AS "orphanJobs"`,
      [userId, since],
    ),
  ]);
  return { ...rows, ...queue };
}
