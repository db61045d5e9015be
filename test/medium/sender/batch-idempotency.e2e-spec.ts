// Idempotency-Key on POST /sender/send/batch (docs/api.md#sending): the key covers the whole batch.
import type { Response } from 'supertest';
import { addressKey } from '../../../src/platform/mail/addresses';
import { senderIdFor } from '../../../src/messages/addresses';
import { rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { batchOf, deliveryJobsOf, sendBatch } from '../../support/batch/batch-support';

describe('Idempotency-Key on POST /sender/send/batch', () => {
  let t: TestApp;
  let keys = 0;
  const newKey = () => `batch-key-${++keys}-${Date.now()}`;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t?.close());

  const expectProblem = (response: Response, status: number) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['idempotent-replayed']).toBeUndefined();
  };

  it('answers a repeat of the same batch with the first answer, marked Idempotent-Replayed, storing and queuing nothing again', async () => {
    const userId = newUserId();
    const key = newKey();
    const messages = batchOf(3);
    const first = await sendBatch(t.http, userId, messages, key).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const rows = await rowsOwnedBy(t.db, userId);
    expect(rows).toMatchObject({ messages: 3, idempotencyKeys: 1 });

    const again = await sendBatch(t.http, userId, messages, key).expect(201);

    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(rows);
    expect(await deliveryJobsOf(t.db, userId)).toBe(3);
  });

  it('refuses the key with another batch (422), a batch in another order included, and stores nothing for it', async () => {
    const userId = newUserId();
    const key = newKey();
    const messages = batchOf(2);
    await sendBatch(t.http, userId, messages, key).expect(201);

    expectProblem(await sendBatch(t.http, userId, [...messages].reverse(), key), 422);
    expectProblem(await sendBatch(t.http, userId, [...messages, sendBody()], key), 422);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 2, idempotencyKeys: 1 });
  });

  it("keeps a single send's key and a batch's apart: one used for the other is 422", async () => {
    const userId = newUserId();
    const key = newKey();
    await t.http.post('/sender/send').set(bearer(userId)).set('Idempotency-Key', key).send(sendBody()).expect(201);

    expectProblem(await sendBatch(t.http, userId, [sendBody()], key), 422);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 1 });
  });

  it('answers a repeat while the first batch is in flight with 409, then replays the first', async () => {
    const userId = newUserId();
    const key = newKey();
    const messages = batchOf(2);
    // Holds the first batch inside its transaction: it waits on this uncommitted sender row.
    const blocker = t.db.createQueryRunner();
    await blocker.connect();
    let first: Promise<Response> | undefined;
    try {
      await blocker.startTransaction();
      const [{ pid }] = await blocker.query(`SELECT pg_backend_pid() AS pid`);
      await blocker.query(`INSERT INTO senders (id, user_id, email) VALUES ($1, $2, $3)`, [
        senderIdFor(userId, 'billing@example.com'),
        userId,
        addressKey('billing@example.com'),
      ]);
      first = sendBatch(t.http, userId, messages, key).then((r) => r);
      await waitUntilBlockedBy(pid);

      expectProblem(await sendBatch(t.http, userId, messages, key), 409);
      expectProblem(await sendBatch(t.http, userId, batchOf(1), key), 409);
    } finally {
      if (blocker.isTransactionActive) await blocker.rollbackTransaction();
      await blocker.release();
    }

    const firstAnswer = await first;
    expect(firstAnswer.status).toBe(201);
    const again = await sendBatch(t.http, userId, messages, key).expect(201);
    expect(again.text).toBe(firstAnswer.text);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 2, idempotencyKeys: 1 });
  });

  it("reports an invalid key with the batch's own errors, and stores nothing", async () => {
    const userId = newUserId();

    const response = await sendBatch(t.http, userId, [sendBody({ subject: '' })], 'é'.repeat(3)).expect(400);

    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'Idempotency-Key',
      'messages[0].subject',
    ]);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 0, idempotencyKeys: 0 });
  });

  /** Waits until a backend waits on a lock that `pid` holds. */
  async function waitUntilBlockedBy(pid: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const [{ blocked }] = await t.db.query(
        `SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`,
        [pid],
      );
      if (blocked >= 1) return;
      if (Date.now() > deadline) throw new Error('The first batch never reached the database');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
});
