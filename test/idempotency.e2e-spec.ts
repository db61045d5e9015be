import type { Response } from 'supertest';
import { DELIVERY_QUEUE } from '../src/delivery/delivery-queue';
import { ExpiredKeysJanitor } from '../src/idempotency/expired-keys.janitor';
import { addressKey, senderIdFor } from '../src/messages/addresses';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from './support/factories';
import { bootTestApp, TestApp } from './support/test-app';
import { bearer, newUserId } from './support/tokens';

const MAX_ATTACHMENT_BYTES = 1000;

/** SPEC §4: Idempotency-Key on POST /sender/send, on two API processes sharing one database. */
describe('Idempotency-Key on POST /sender/send', () => {
  let t: TestApp;
  // A second API process on the same database, with a connection pool of its own.
  let other: TestApp;

  beforeAll(async () => {
    const env = { MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES), RATE_LIMIT_PER_MINUTE: '100000' };
    // One after the other: two processes creating pg-boss's queues together can deadlock
    // (src/queue/job-queue.ts ensureQueue), which is not what these tests are about.
    t = await bootTestApp(env);
    other = await bootTestApp(env);
  });
  afterAll(async () => {
    await Promise.all([t?.close(), other?.close()]);
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
    expect(response.body).toMatchObject({ type: 'about:blank', title, status, detail: expect.any(String), requestId: expect.any(String) });
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

  describe('a repeat with the same body', () => {
    it('gets the first answer, marked Idempotent-Replayed, and nothing is stored, queued or announced again', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody({ webhook: { url: 'https://hooks.example.com/mailroom' }, customPayload: { order: '42' } });

      const first = await send(userId, body, key);
      expectFirstAnswer(first);
      expect(first.body).toMatchObject({ status: 'queued', userId, customPayload: { order: '42' } });
      const rowsAfterFirst = await rowsOwnedBy(t.db, userId);
      expect(rowsAfterFirst).toMatchObject({ senders: 1, messages: 1, recipients: 1, events: 1, attachments: 0 });
      expect(await deliveryJobsFor(first.body.id)).toBe(1);
      const webhookEvents = await webhookEventsOf(userId);
      expect(webhookEvents).toBe(1);
      const acceptedBefore = await acceptedCount(t);

      const again = await send(userId, body, key);
      const onOtherProcess = await send(userId, body, key, other);

      expectReplayOf(again, first);
      expectReplayOf(onOtherProcess, first);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(rowsAfterFirst);
      expect(await deliveryJobsFor(first.body.id)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
      expect(await webhookEventsOf(userId)).toBe(webhookEvents);
      expect(await keysOf(userId)).toBe(1);
      expect(await acceptedCount(t)).toBe(acceptedBefore);
    });

    it('replays the first answer byte for byte even after the message has moved on', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody({
        subject: 'Grüße — ✉️',
        to: ['Zoe@example.com', 'ada@example.com'],
        customPayload: { zeta: 'last', alpha: 'first', 'ключ': 'значение', mid: 'a "quoted" \\ value' },
        bulkSendingId: 'spring',
        priority: 'high',
      });
      const first = await send(userId, body, key);
      expectFirstAnswer(first);

      await t.db.query(`UPDATE messages SET status = 'sent', subject = 'changed since' WHERE id = $1`, [first.body.id]);
      const now = await t.http.get(`/user/messages/${first.body.id}`).set(bearer(userId)).expect(200);
      expect(now.body).toMatchObject({ status: 'sent', subject: 'changed since' });

      const again = await send(userId, body, key);

      expectReplayOf(again, first);
      expect(again.body).toMatchObject({ status: 'queued', subject: 'Grüße — ✉️' });
    });

    it('is recognised whatever the order of the keys in the JSON body', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/json')
        .send('{"subject":"Hi","html":"<p>x</p>","to":["a@example.com"],"sender":"s@example.com","customPayload":{"a":"1","b":"2"}}');
      expectFirstAnswer(first);

      const reordered = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/json')
        .send('{ "customPayload": {"b":"2", "a":"1"}, "sender": "s@example.com", "to": ["a@example.com"], "html": "<p>x</p>", "subject": "Hi" }');

      expectReplayOf(reordered, first);
      expect(await messagesOf(userId)).toBe(1);
    });

    it('sends a new message when no key is given', async () => {
      const userId = newUserId();
      const first = await send(userId, sendBody());
      const second = await send(userId, sendBody());

      expectFirstAnswer(first);
      expectFirstAnswer(second);
      expect(second.body.id).not.toBe(first.body.id);
      expect(await messagesOf(userId)).toBe(2);
      expect(await keysOf(userId)).toBe(0);
    });
  });

  describe('a repeat with another body', () => {
    it('gets 422 and changes nothing: the key still replays its first answer', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await send(userId, sendBody(), key);
      expectFirstAnswer(first);

      for (const changed of [
        sendBody({ subject: 'Another subject' }),
        sendBody({ to: ['ada@example.com', 'grace@example.com'] }),
        sendBody({ priority: 'high' }),
        sendBody({ customPayload: { a: 'b' } }),
      ]) {
        expectProblem(await send(userId, changed, key), 422, 'Unprocessable Entity');
        expectProblem(await send(userId, changed, key, other), 422, 'Unprocessable Entity');
      }

      expect(await messagesOf(userId)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
      expectReplayOf(await send(userId, sendBody(), key), first);
    });
  });

  describe('a repeat while the first is in flight', () => {
    it('gets 409 on any process, and the first then completes and is replayed', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody();
      // Holds the first send inside its transaction: it waits on this uncommitted sender row.
      const blocker = t.db.createQueryRunner();
      await blocker.connect();
      let first: Promise<Response> | undefined;
      try {
        await blocker.startTransaction();
        const [{ pid }] = await blocker.query(`SELECT pg_backend_pid() AS pid`);
        await blocker.query(`INSERT INTO senders (id, user_id, email) VALUES ($1, $2, $3)`, [
          senderIdFor(userId, body.sender as string),
          userId,
          addressKey(body.sender as string),
        ]);
        first = send(userId, body, key).then((r) => r);
        await waitUntilBlockedBy(pid);

        const sameBody = await send(userId, body, key, other);
        const otherBody = await send(userId, sendBody({ subject: 'Different' }), key);

        expectProblem(sameBody, 409, 'Conflict');
        expectProblem(otherBody, 409, 'Conflict');
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }

      const firstAnswer = await first!;
      expectFirstAnswer(firstAnswer);
      expectReplayOf(await send(userId, body, key, other), firstAnswer);
      expect(await messagesOf(userId)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
    });

    it('answers a repeat after the first has finished with the first answer, even while another repeat is being answered', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody();
      const first = await send(userId, body, key);
      expectFirstAnswer(first);
      // Holds one repeat inside its transaction, at its read of the stored answer (briefly: other
      // files' sends with a key wait on this lock too).
      const blocker = t.db.createQueryRunner();
      await blocker.connect();
      let heldRepeat: Promise<Response> | undefined;
      let secondRepeat: Promise<Response> | undefined;
      try {
        await blocker.startTransaction();
        const [{ pid }] = await blocker.query(`SELECT pg_backend_pid() AS pid`);
        await blocker.query(`LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE`);
        heldRepeat = send(userId, body, key).then((r) => r);
        await waitUntilBlockedBy(pid);

        // Answered at once, or waiting on the table like the first repeat: either way, then let go.
        let settled = false;
        secondRepeat = send(userId, body, key, other).then((r) => ((settled = true), r));
        await waitUntilBlockedBy(pid, 2, () => settled);
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }

      expectReplayOf(await heldRepeat!, first);
      // The first request finished long ago: nothing is in flight that could justify a 409.
      expectReplayOf(await secondRepeat!, first);
      expect(await messagesOf(userId)).toBe(1);
    });

    /** Waits until `backends` backends wait on a lock that `pid` holds (or `done`). */
    async function waitUntilBlockedBy(pid: number, backends = 1, done = () => false): Promise<void> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        if (done()) return;
        const [{ blocked }] = await t.db.query(
          `SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`,
          [pid],
        );
        if (blocked >= backends) return;
        if (Date.now() > deadline) throw new Error('The first send never reached the database');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    it('lets exactly one of 20 concurrent identical sends on two processes through: one message, one job', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody({ customPayload: { race: 'same body' } });

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(userId, body, key, i % 2 === 0 ? t : other)),
      );

      const created = answers.filter((r) => r.status === 201);
      const conflicts = answers.filter((r) => r.status !== 201);
      for (const conflict of conflicts) expectProblem(conflict, 409, 'Conflict');
      const originals = created.filter((r) => r.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      const [original] = originals;
      expectFirstAnswer(original);
      for (const replay of created.filter((r) => r !== original)) expectReplayOf(replay, original);

      expect(await messagesOf(userId)).toBe(1);
      expect(await deliveryJobsFor(original.body.id)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
      expect(await keysOf(userId)).toBe(1);
      expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ senders: 1, messages: 1, recipients: 1, events: 1, attachments: 0 });
      // Once the dust settles, every repeat is a replay.
      expectReplayOf(await send(userId, body, key, other), original);
    });

    it('lets exactly one of 20 concurrent sends with one key and different bodies through', async () => {
      const userId = newUserId();
      const key = newKey();

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(userId, sendBody({ subject: `Race ${i}` }), key, i % 2 === 0 ? t : other)),
      );

      const created = answers.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      const [winner] = created;
      expectFirstAnswer(winner);
      for (const refused of answers.filter((r) => r !== winner)) {
        expect([409, 422]).toContain(refused.status);
        expectProblem(refused, refused.status, refused.status === 409 ? 'Conflict' : 'Unprocessable Entity');
      }
      expect(await messagesOf(userId)).toBe(1);
      const [stored] = await t.db.query(`SELECT id, subject FROM messages WHERE user_id = $1`, [userId]);
      expect(stored).toEqual({ id: winner.body.id, subject: winner.body.subject });
      expect(await deliveryJobsOfUser(userId)).toBe(1);
    });
  });

  describe('scope and lifetime', () => {
    it('keeps keys per user: another user may use the same key, with the same body or another', async () => {
      const alice = newUserId('alice');
      const bob = newUserId('bob');
      const key = newKey();
      const aliceFirst = await send(alice, sendBody(), key);
      expectFirstAnswer(aliceFirst);

      const bobSame = await send(bob, sendBody(), key);
      expectFirstAnswer(bobSame);
      expect(bobSame.body.id).not.toBe(aliceFirst.body.id);
      expect(bobSame.body.userId).toBe(bob);
      const carol = newUserId('carol');
      const carolOther = await send(carol, sendBody({ subject: 'Carol writes' }), key);
      expectFirstAnswer(carolOther);

      expectReplayOf(await send(bob, sendBody(), key), bobSame);
      expectReplayOf(await send(alice, sendBody(), key), aliceFirst);
      expect(await messagesOf(alice)).toBe(1);
      expect(await messagesOf(bob)).toBe(1);
      expect(await messagesOf(carol)).toBe(1);
    });

    it('treats distinct keys as distinct, letter case included', async () => {
      const userId = newUserId();
      const key = newKey();
      const lower = await send(userId, sendBody(), `${key}-abc`);
      const upper = await send(userId, sendBody(), `${key}-ABC`);

      expectFirstAnswer(lower);
      expectFirstAnswer(upper);
      expect(upper.body.id).not.toBe(lower.body.id);
      expect(await messagesOf(userId)).toBe(2);
    });

    it('still replays a key used 23 hours ago', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await send(userId, sendBody(), key);
      await ageKey(userId, key, '23 hours');

      expectReplayOf(await send(userId, sendBody(), key), first);
      expectProblem(await send(userId, sendBody({ subject: 'Other' }), key), 422, 'Unprocessable Entity');
      expect(await messagesOf(userId)).toBe(1);
    });

    it('treats a key used more than 24 hours ago as new, with the same body or another', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await send(userId, sendBody(), key);
      await ageKey(userId, key, '25 hours');

      const sameBody = await send(userId, sendBody(), key);
      expectFirstAnswer(sameBody);
      expect(sameBody.body.id).not.toBe(first.body.id);
      expectReplayOf(await send(userId, sendBody(), key), sameBody);

      await ageKey(userId, key, '25 hours');
      const otherBody = await send(userId, sendBody({ subject: 'A day later' }), key);
      expectFirstAnswer(otherBody);
      expectReplayOf(await send(userId, sendBody({ subject: 'A day later' }), key), otherBody);

      expect(await messagesOf(userId)).toBe(3);
      expect(await deliveryJobsOfUser(userId)).toBe(3);
      expect(await keysOf(userId)).toBe(1);
    });

    it('loses keys past 24 hours to the janitor, and keeps younger ones', async () => {
      const userId = newUserId();
      const [old, young] = [newKey(), newKey()];
      await send(userId, sendBody(), old);
      await send(userId, sendBody({ subject: 'Younger' }), young);
      await ageKey(userId, old, '25 hours');
      await ageKey(userId, young, '23 hours');

      const deleted = await t.app.get(ExpiredKeysJanitor).sweep();

      expect(deleted).toBeGreaterThanOrEqual(1);
      const kept: { key: string }[] = await t.db.query(`SELECT key FROM idempotency_keys WHERE user_id = $1`, [userId]);
      expect(kept.map((row) => row.key)).toEqual([young]);
    });

    async function ageKey(userId: string, key: string, age: string): Promise<void> {
      const [, updated] = await t.db.query(
        `UPDATE idempotency_keys SET created_at = now() - $3::interval WHERE user_id = $1 AND key = $2`,
        [userId, key, age],
      );
      expect(updated).toBe(1);
    }
  });

  describe('the key itself', () => {
    it.each([
      ['one character', 'k'],
      ['255 visible ASCII characters', '~!#$%&*+-./:;<=>?@[]^_`{|}"\'()'.padEnd(255, 'x')],
      ['a UUID', '0f8fad5b-d9cb-469f-a165-70867728950e'],
      ['inner spaces', 'order 42 attempt 1'],
    ])('accepts %s', async (_case, key) => {
      const userId = newUserId();
      const first = await send(userId, sendBody(), key);
      expectFirstAnswer(first);
      expectReplayOf(await send(userId, sendBody(), key), first);
      const [stored] = await t.db.query(`SELECT key FROM idempotency_keys WHERE user_id = $1`, [userId]);
      expect(stored.key).toBe(key);
    });

    it.each([
      ['empty', ''],
      ['256 characters', 'x'.repeat(256)],
      ['a non-ASCII character', 'café'],
      ['a latin-1 control character', 'a\u0085b'],
      ['a tab', 'a\tb'],
    ])('refuses a key that is %s with 400 naming the header, and writes nothing', async (_case, key) => {
      const userId = newUserId();

      const response = await send(userId, sendBody(), key);

      expectProblem(response, 400, 'Bad Request');
      expect(response.body.errors[0].field).toBe('Idempotency-Key');
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });
  });

  describe('an invalid key with an invalid body', () => {
    it('is listed beside the failing fields of the body (SPEC §3: every failing field)', async () => {
      const userId = newUserId();

      const response = await send(userId, sendBody({ subject: '', to: [] }), 'x'.repeat(256));

      expectProblem(response, 400, 'Bad Request');
      expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['Idempotency-Key', 'subject', 'to']);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });
  });

  describe('a refused first request', () => {
    const upload = async (userId: string, bytes: number): Promise<string> => {
      const { body } = await t.http.post('/attachments').set(bearer(userId)).attach('file', Buffer.alloc(bytes, 1), 'data.bin').expect(201);
      return body.id;
    };

    const refusals: [string, number, (userId: string) => Promise<Record<string, unknown>>][] = [
      ['400 for an invalid body', 400, async () => sendBody({ to: ['not-an-address'] })],
      ['400 for an unknown stored attachment', 400, async () => sendBody({ attachmentIds: ['6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a'] })],
      ['400 for a webhook URL with credentials', 400, async () => sendBody({ webhook: { url: 'https://user:pass@hooks.example.com/h' } })],
      [
        '413 for inline attachments over MAX_ATTACHMENT_BYTES',
        413,
        async () => sendBody({ attachments: [{ fileName: 'big.bin', content: Buffer.alloc(MAX_ATTACHMENT_BYTES + 1).toString('base64') }] }),
      ],
      [
        '413 for stored attachments over MAX_ATTACHMENT_BYTES together',
        413,
        async (userId) => sendBody({ attachmentIds: [await upload(userId, 600), await upload(userId, 600)] }),
      ],
    ];

    it.each(refusals)('(%s) stores no key: the corrected retry with the same key is accepted', async (_case, status, refusedBody) => {
      const userId = newUserId();
      const key = newKey();

      const refused = await send(userId, await refusedBody(userId), key);

      expect(refused.status).toBe(status);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(await keysOf(userId)).toBe(0);
      expect(await messagesOf(userId)).toBe(0);
      const corrected = await send(userId, sendBody(), key);
      expectFirstAnswer(corrected);
      expectReplayOf(await send(userId, sendBody(), key), corrected);
      expect(await messagesOf(userId)).toBe(1);
    });
  });
});
