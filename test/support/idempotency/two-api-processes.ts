// The apps the Idempotency-Key specs run (docs/api.md#sending): two API processes sharing one database, and
// what the specs count and expect of their answers.
import type { Response } from 'supertest';
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { bootTestApp, TestApp } from '../test-app';
import { bearer } from '../tokens';

export const MAX_ATTACHMENT_BYTES = 1000;

/**
 * Boots both processes before the calling describe's tests and closes them after; `t` and `other`
 * are usable once its beforeAll has run.
 */
export function bootTwoApiProcesses() {
  const t = {} as TestApp;
  // A second API process on the same database, with a connection pool of its own.
  const other = {} as TestApp;

  beforeAll(async () => {
    const env = { MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES), RATE_LIMIT_PER_MINUTE: '100000' };
    // One after the other: two processes creating pg-boss's queues together can deadlock
    // (src/platform/queue/job-queue.ts ensureQueue), which is not what these tests are about.
    Object.assign(t, await bootTestApp(env));
    Object.assign(other, await bootTestApp(env));
  });
  afterAll(async () => {
    await Promise.all([t.close?.(), other.close?.()]);
  });

  const send = (userId: string, body: unknown, key?: string, app: TestApp = t) => {
    const req = app.http.post('/sender/send').set(bearer(userId));
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body as object);
  };

  const newKey = () => `key-${Math.random().toString(36).slice(2)}-${Date.now()}`;

  const countOf = async (sql: string, params: unknown[]): Promise<number> => {
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM (${sql}) AS rows`, params);
    return count;
  };
  const deliveryJobsFor = (messageId: string) =>
    countOf(`SELECT 1 FROM pgboss.job WHERE name = $1 AND data->>'messageId' = $2`, [DELIVERY_QUEUE, messageId]);
  const deliveryJobsOfUser = (userId: string) =>
    countOf(
      `SELECT 1 FROM pgboss.job j JOIN messages m ON m.id::text = j.data->>'messageId' WHERE j.name = $1 AND m.user_id = $2`,
      [DELIVERY_QUEUE, userId],
    );
  const messagesOf = (userId: string) => countOf(`SELECT 1 FROM messages WHERE user_id = $1`, [userId]);
  const keysOf = (userId: string) => countOf(`SELECT 1 FROM idempotency_keys WHERE user_id = $1`, [userId]);
  const webhookEventsOf = (userId: string) => countOf(`SELECT 1 FROM webhook_events WHERE user_id = $1`, [userId]);
  const acceptedCount = async (app: TestApp) => {
    const { text } = await app.http.get('/metrics').expect(200);
    return Number(/^mailroom_messages_accepted_total (\d+)$/m.exec(text)![1]);
  };

  const expectProblem = (response: Response, status: number, title: string) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      type: 'about:blank',
      title,
      status,
      detail: expect.any(String),
      requestId: expect.any(String),
    });
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  };

  const expectFirstAnswer = (response: Response) => {
    expect(response.status).toBe(201);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
    expect(response.headers.location).toBe(`/user/messages/${response.body.id}`);
  };

  const expectReplayOf = (response: Response, first: Response) => {
    expect(response.status).toBe(201);
    expect(response.headers['idempotent-replayed']).toBe('true');
    expect(response.headers['content-type']).toBe(first.headers['content-type']);
    expect(response.headers.location).toBe(`/user/messages/${first.body.id}`);
    expect(response.text).toBe(first.text);
  };

  return {
    t,
    other,
    send,
    newKey,
    deliveryJobsFor,
    deliveryJobsOfUser,
    messagesOf,
    keysOf,
    webhookEventsOf,
    acceptedCount,
    expectProblem,
    expectFirstAnswer,
    expectReplayOf,
  };
}
