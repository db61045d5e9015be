import type { DataSource } from 'typeorm';
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { rowsOwnedBy } from '../factories';

/** Everything a send can write for a user, and queue jobs since `since` that point at nothing (a half-written send). */
export async function footprint(db: DataSource, userId: string, since: Date): Promise<Record<string, number>> {
  const [rows, [queue]] = await Promise.all([
    rowsOwnedBy(db, userId),
    db.query(
      `SELECT
         (SELECT count(*)::int FROM webhook_events WHERE user_id = $1) AS "webhookEvents",
         (SELECT count(*)::int FROM pgboss.job WHERE name = $3
            AND data->>'messageId' IN (SELECT id::text FROM messages WHERE user_id = $1)) AS "deliveryJobs",
         (SELECT count(*)::int FROM pgboss.job WHERE name = $4
            AND data->>'eventId' IN (SELECT id::text FROM webhook_events WHERE user_id = $1)) AS "webhookJobs",
         (SELECT count(*)::int FROM pgboss.job j WHERE j.created_on >= $2 AND (
            (j.name = $3 AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = (j.data->>'messageId')::uuid))
            OR (j.name = $4 AND NOT EXISTS (SELECT 1 FROM webhook_events w WHERE w.id = (j.data->>'eventId')::uuid))
         )) AS "orphanJobs"`,
      [userId, since, DELIVERY_QUEUE, WEBHOOK_QUEUE],
    ),
  ]);
  return { ...rows, ...queue };
}
