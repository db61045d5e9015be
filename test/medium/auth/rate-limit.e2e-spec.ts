import { sign } from 'jsonwebtoken';
import type { Response } from 'supertest';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TEST_JWT_SECRET, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForAsync } from '../../support/wait-for';
import { localAllowance } from '../../../src/auth/rate-limit/postgres-throttler.storage';

const LIMIT = 3;

/** docs/configuration.md RATE_LIMIT_PER_MINUTE and docs/api.md#errors 429: one budget per user, shared by every API process. */
describe('rate limiting', () => {
  let t: TestApp;
  // A second API process on the same database: the budget is the database's, not the process's.
  let other: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    other = await bootTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(async () => {
    await Promise.all([t?.close(), other?.close()]);
  });

  const list = (userId: string, app: TestApp = t) => app.http.get('/user/messages').set(bearer(userId));
  const send = (userId: string, app: TestApp = t, body: object = sendBody()) =>
    app.http.post('/sender/send').set(bearer(userId)).send(body);

  const headerNumber = (response: Response, name: string): number => {
    const value = response.headers[name];
    expect(value).toMatch(/^\d+$/);
    return Number(value);
  };

  /** The RateLimit-* headers of a counted answer that was let through; returns RateLimit-Reset. */
  const expectCounted = (response: Response, remaining: number): number => {
    expect(headerNumber(response, 'ratelimit-limit')).toBe(LIMIT);
    expect(headerNumber(response, 'ratelimit-remaining')).toBe(remaining);
    const reset = headerNumber(response, 'ratelimit-reset');
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    expect(response.headers['retry-after']).toBeUndefined();
    return reset;
  };

  /** A 429 problem with Retry-After and the RateLimit-* headers; returns Retry-After. */
  const expectLimited = (response: Response): number => {
    expect(response.status).toBe(429);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      type: 'about:blank',
      title: 'Too Many Requests',
      status: 429,
      detail: expect.any(String),
      requestId: expect.any(String),
    });
    const retryAfter = headerNumber(response, 'retry-after');
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(headerNumber(response, 'ratelimit-limit')).toBe(LIMIT);
    expect(headerNumber(response, 'ratelimit-remaining')).toBe(0);
    expect(Math.abs(headerNumber(response, 'ratelimit-reset') - retryAfter)).toBeLessThanOrEqual(1);
    return retryAfter;
  };

  const expectUncounted = (response: Response) => {
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']) {
      expect(response.headers[name]).toBeUndefined();
    }
  };

  const exhaust = async (userId: string) => {
    for (let remaining = LIMIT - 1; remaining >= 0; remaining--)
      expectCounted(await list(userId).expect(200), remaining);
    expectLimited(await list(userId));
  };

  /** Ends the user's current window, as if a minute had passed. */
  const endWindow = async (userId: string, endsIn = "- interval '1 second'") => {
    const [, updated] = await t.db.query(
      `UPDATE rate_limit_counters SET window_ends_at = now() ${endsIn} WHERE position($1 in key) > 0`,
      [userId],
    );
    expect(updated).toBe(1);
  };

  /** Waits until the user's counter holds `hits`: what a process admitted on its own is written in the background. */
  const hitsWritten = async (userId: string, hits: number) => {
    await waitForAsync(async () => {
      const [row] = await t.db.query(`SELECT hits FROM rate_limit_counters WHERE position($1 in key) > 0`, [userId]);
      return row?.hits === hits;
    }, `${hits} hits written for ${userId}`);
  };

  it('counts a user down through RateLimit-Remaining and answers the request over the limit with 429 and Retry-After', async () => {
    const userId = newUserId();

    const resets: number[] = [];
    for (const remaining of [2, 1, 0]) resets.push(expectCounted(await list(userId).expect(200), remaining));
    const limited = await list(userId);
    const retryAfter = expectLimited(limited);
    expectLimited(await list(userId));

    // One fixed window: its end does not move with each request.
    expect(resets[0]).toBeGreaterThanOrEqual(58);
    expect(resets[1]).toBeLessThanOrEqual(resets[0]);
    expect(resets[2]).toBeLessThanOrEqual(resets[1]);
    expect(retryAfter).toBeLessThanOrEqual(resets[2]);
    expect(retryAfter).toBeGreaterThanOrEqual(resets[0] - 5);
  });

  it('keeps one budget per user', async () => {
    const blocked = newUserId('blocked');
    const fresh = newUserId('fresh');
    await exhaust(blocked);

    expectCounted(await list(fresh).expect(200), 2);
    expectCounted(await send(fresh).expect(201), 1);
    expectLimited(await list(blocked));
  });

  it('shares one budget across endpoints and across API processes', async () => {
    const userId = newUserId();

    expectCounted(await list(userId, other).expect(200), 2);
    const sent = await send(userId, other).expect(201);
    expectCounted(sent, 1);
    expectCounted(await other.http.get(`/user/messages/${sent.body.id}`).set(bearer(userId)).expect(200), 0);
    // The send was admitted from what that process knew, its hit written in the background: on a
    // busy machine that write can come after the next request (docs/scaling.md allows a window
    // localAllowance() more per process), so the database is waited for to hold all three.
    await hitsWritten(userId, LIMIT);

    // The other process has not seen this user: its first request counts in the database, spent.
    expectLimited(await list(userId, t));
    expectLimited(await send(userId, t));
    expectLimited(await other.http.get('/user/webhook-secret').set(bearer(userId)));
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 1 });
  });

  it('lets the limit through, and at most one more a process, when requests arrive together on both', async () => {
    const userId = newUserId();

    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => list(userId, i % 2 === 0 ? t : other)));

    // localAllowance(3) is 1: each process may admit one request the other has counted meanwhile.
    const allowed = answers.filter((r) => r.status === 200);
    expect(allowed.length).toBeGreaterThanOrEqual(LIMIT);
    expect(allowed.length).toBeLessThanOrEqual(LIMIT + 2 * localAllowance(LIMIT));
    for (const response of answers.filter((r) => r.status !== 200)) expectLimited(response);
  });

  it('counts answers that are errors too, and sets the headers on them', async () => {
    const userId = newUserId();

    expectCounted(await t.http.get('/user/messages').query({ take: 0 }).set(bearer(userId)).expect(400), 2);
    expectCounted(
      await t.http.get('/user/messages/6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a').set(bearer(userId)).expect(404),
      1,
    );
    expectCounted(await send(userId, t, sendBody({ to: [] })).expect(400), 0);
    expectLimited(await list(userId));
  });

  it('writes nothing for a refused send, Idempotency-Key included', async () => {
    const userId = newUserId();
    await exhaust(userId);

    const refused = await send(userId).set('Idempotency-Key', 'after-the-limit');
    expectLimited(refused);
    expect(refused.headers.location).toBeUndefined();
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);

    await endWindow(userId);
    const accepted = await send(userId).set('Idempotency-Key', 'after-the-limit').expect(201);
    expect(accepted.headers['idempotent-replayed']).toBeUndefined();
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 1, idempotencyKeys: 1 });
  });

  it('gives the whole budget back when a new window starts', async () => {
    const userId = newUserId();
    await exhaust(userId);

    await endWindow(userId);

    // Refusals are the database's: the process that refused before admits again at once.
    const reset = expectCounted(await list(userId, other).expect(200), 2);
    expect(reset).toBeGreaterThanOrEqual(58);
    expectCounted(await list(userId, t).expect(200), 1);
    expectCounted(await list(userId, t).expect(200), 0);
    expectLimited(await list(userId, t));
  });

  it('tells a blocked user when its window ends, not a fixed minute', async () => {
    const userId = newUserId();
    expectCounted(await list(userId).expect(200), 2);
    await endWindow(userId, "+ interval '5 seconds'");

    // Admitted from what the process knew; its write of that hit brings back the window's new end.
    expectCounted(await list(userId).expect(200), 1);
    await hitsWritten(userId, 2);
    const reset = expectCounted(await list(userId).expect(200), 0);
    expect(reset).toBeLessThanOrEqual(5);
    const retryAfter = expectLimited(await list(userId));
    expect(retryAfter).toBeLessThanOrEqual(5);
  });

  it('never counts, limits or labels the public endpoints, with or without a token', async () => {
    const userId = newUserId();
    await exhaust(userId);

    for (const path of ['/health', '/health/ready', '/metrics', '/docs-json']) {
      for (let i = 0; i < LIMIT + 1; i++) {
        expectUncounted(await t.http.get(path).set(bearer(userId)).expect(200));
        expectUncounted(await other.http.get(path).expect(200));
      }
    }

    // Nor do they spend a fresh user's budget.
    const fresh = newUserId();
    for (const path of ['/health', '/health/ready', '/metrics', '/docs-json']) {
      for (let i = 0; i < LIMIT + 1; i++) await t.http.get(path).set(bearer(fresh)).expect(200);
    }
    expectCounted(await list(fresh).expect(200), 2);
  });

  it('answers requests without a valid token with 401, uncounted, even for a blocked user', async () => {
    const userId = newUserId();
    const expired = sign({ sub: userId, exp: Math.floor(Date.now() / 1000) - 60 }, TEST_JWT_SECRET, {
      algorithm: 'HS256',
    });
    const forged = sign({ sub: userId }, `${TEST_JWT_SECRET}-forged`, { algorithm: 'HS256', expiresIn: 600 });

    for (let i = 0; i < LIMIT + 1; i++) {
      for (const token of [expired, forged]) {
        const refused = await t.http.get('/user/messages').set('Authorization', `Bearer ${token}`).expect(401);
        expectUncounted(refused);
      }
      expectUncounted(await other.http.post('/sender/send').send(sendBody()).expect(401));
    }
    expectCounted(await list(userId).expect(200), 2);
    expectCounted(await list(userId).expect(200), 1);
    expectCounted(await list(userId).expect(200), 0);
    expectLimited(await list(userId));

    const refused = await t.http.get('/user/messages').set('Authorization', `Bearer ${expired}`);
    expect(refused.status).toBe(401);
    expectUncounted(refused);
  });
});

describe('rate limiting by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t?.close());

  it('allows 600 requests per user and minute', async () => {
    const response = await t.http.get('/user/messages').set(bearer(newUserId())).expect(200);
    expect(response.headers['ratelimit-limit']).toBe('600');
    expect(response.headers['ratelimit-remaining']).toBe('599');
  });
});
