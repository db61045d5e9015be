// What the batch specs share: the request and the counts that prove a refused batch wrote nothing.
import type TestAgent from 'supertest/lib/agent';
import type { DataSource } from 'typeorm';
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { sendBody } from '../factories';
import { bearer } from '../tokens';

/** n valid send bodies, each told apart by its subject. */
export const batchOf = (n: number, overrides: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => sendBody({ subject: `Message ${i}`, to: [`r${i}@example.com`], ...overrides }));

export function sendBatch(http: TestAgent, userId: string, messages: unknown, key?: string) {
  const request = http.post('/sender/send/batch').set(bearer(userId));
  if (key !== undefined) request.set('Idempotency-Key', key);
  return request.send({ messages });
}

/** The user's delivery jobs: a batch queues one per message, in the same transaction. */
export async function deliveryJobsOf(db: DataSource, userId: string): Promise<number> {
  const [{ count }] = await db.query(
    `SELECT count(*)::int AS count FROM pgboss.job j JOIN messages m ON m.id::text = j.data->>'messageId' WHERE j.name = $1 AND m.user_id = $2`,
    [DELIVERY_QUEUE, userId],
  );
  return count;
}
