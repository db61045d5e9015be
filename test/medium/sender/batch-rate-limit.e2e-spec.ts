// Rate limiting counts messages, not requests (docs/api.md#errors, issue 14): a batch of N spends N of the
// caller's budget of the minute, and one that does not fit in what is left is refused whole.
import type { Response } from 'supertest';
import { rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { batchOf, sendBatch } from '../../support/batch/batch-support';

const LIMIT = 10;

describe('rate limiting of POST /sender/send/batch', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => t?.close());

  const list = (userId: string) => t.http.get('/user/messages').set(bearer(userId));
  const remaining = (response: Response) => Number(response.headers['ratelimit-remaining']);

  const expectLimited = (response: Response, left: number) => {
    expect(response.status).toBe(429);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status: 429, title: 'Too Many Requests', detail: expect.any(String) });
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.headers['ratelimit-limit']).toBe(String(LIMIT));
    expect(remaining(response)).toBe(left);
    expect(Math.abs(Number(response.headers['ratelimit-reset']) - retryAfter)).toBeLessThanOrEqual(1);
  };

  it('spends one of the budget per message, and refuses whole a batch larger than what is left', async () => {
    const userId = newUserId();

    const first = await sendBatch(t.http, userId, batchOf(4)).expect(201);
    expect(first.headers['ratelimit-limit']).toBe(String(LIMIT));
    expect(remaining(first)).toBe(6);

    // Needs 7 of the 6 left: refused, and only the request itself is counted, like any refused request.
    const tooMany = await sendBatch(t.http, userId, batchOf(7));
    expectLimited(tooMany, 5);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 4 });

    const exact = await sendBatch(t.http, userId, batchOf(5)).expect(201);
    expect(remaining(exact)).toBe(0);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 9 });
    expect((await list(userId)).status).toBe(429);
  });

  it('refuses a batch larger than the whole budget, even in a fresh minute', async () => {
    const userId = newUserId();

    expectLimited(await sendBatch(t.http, userId, batchOf(LIMIT + 1)), LIMIT - 1);

    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 0 });
    expect(remaining(await list(userId).expect(200))).toBe(LIMIT - 2);
  });

  it('counts a refused (invalid) batch as the one request it is', async () => {
    const userId = newUserId();

    const refused = await sendBatch(t.http, userId, [...batchOf(8), sendBody({ to: [] })]).expect(400);

    expect(remaining(refused)).toBe(LIMIT - 1);
  });

  it('counts a batch the intake refuses, and a replayed batch, as the one request each is', async () => {
    const userId = newUserId();
    // Valid as a body: only the intake knows that no such stored attachment exists.
    const refusedByIntake = [...batchOf(7), sendBody({ attachmentIds: ['0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e'] })];

    const refused = await sendBatch(t.http, userId, refusedByIntake).expect(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['messages[7].attachmentIds[0]']);
    expect(remaining(refused)).toBe(LIMIT - 1);

    const first = await sendBatch(t.http, userId, batchOf(4), 'batch-once').expect(201);
    expect(remaining(first)).toBe(LIMIT - 1 - 4);
    const replay = await sendBatch(t.http, userId, batchOf(4), 'batch-once').expect(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(remaining(replay)).toBe(LIMIT - 1 - 4 - 1);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 4 });
  });

  it('lets only what fits through when batches of one user arrive together', async () => {
    const userId = newUserId();

    const answers = await Promise.all([sendBatch(t.http, userId, batchOf(6)), sendBatch(t.http, userId, batchOf(6))]);

    expect(answers.map((r) => r.status).sort()).toEqual([201, 429]);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 6 });
  });
});
