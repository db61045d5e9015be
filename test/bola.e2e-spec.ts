// Broken object-level authorization (SPEC §2): every endpoint that takes an id, given another
// user's real id, must answer exactly as it answers an id that exists nowhere, and must change
// nothing of that user's. Alice owns real data, delivered by a real worker to a real SMTP sink and
// a real webhook receiver; Bob and Carol probe it.
import { randomUUID } from 'node:crypto';
import type { Response, Test } from 'supertest';
import { rowsOwnedBy, sendBody } from './support/factories';
import { SmtpSink } from './support/smtp-sink';
import { bootTestApp, TestApp } from './support/test-app';
import { bearer, newUserId } from './support/tokens';
import { waitForStatus } from './support/wait-for';
import { WebhookReceiver } from './support/webhook-receiver';

const TIMEOUT = 120_000;
const PLACEHOLDER = '<id>';
// Shared by Alice's and Bob's messages, so that a filter that forgot the owner would find both.
const SHARED = {
  sender: 'billing@example.com',
  to: ['ada@example.com'],
  bulkSendingId: 'spring-campaign',
  contactId: 'contact-1',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A random UUID of the same version as `id`: the same shape, naming nothing. */
function nowhereLike(id: string): string {
  const random = randomUUID().split('');
  random[14] = id[14];
  return random.join('');
}

const VARIANTS: Record<string, (id: string) => string> = {
  'as issued': (id) => id,
  'upper-cased': (id) => id.toUpperCase(),
  'without hyphens': (id) => id.replace(/-/g, ''),
};

// Headers whose values differ between any two requests (time, request id, the rate-limit count).
const VOLATILE_HEADERS = new Set(['date', 'etag', 'x-request-id', 'ratelimit-remaining', 'ratelimit-reset']);

/**
 * What a caller can observe of an answer, with the id it asked about replaced by a placeholder and
 * the request id removed: two answers that observe alike cannot be told apart.
 */
function observe(response: Response, id: string) {
  const idPattern = new RegExp(escapeRegExp(id), 'gi');
  let body: unknown = response.text;
  try {
    const parsed = JSON.parse(response.text);
    if (parsed && typeof parsed === 'object') delete parsed.requestId;
    body = parsed;
  } catch {
    // Not JSON: compared as text.
  }
  const headers = Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => name !== 'connection' && name !== 'keep-alive')
      .map(([name, value]) => [
        name,
        VOLATILE_HEADERS.has(name) ? '(varies)' : String(value).replace(idPattern, PLACEHOLDER),
      ]),
  );
  return { status: response.status, headers, body: JSON.parse(JSON.stringify(body).replace(idPattern, PLACEHOLDER)) };
}

describe("BOLA: another user's id is answered like an id that exists nowhere (SPEC §2)", () => {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  let t: TestApp;

  const alice = newUserId('alice');
  const bob = newUserId('bob');
  const alicePath = `/hooks/alice/${randomUUID()}`;
  const bobPath = `/hooks/bob/${randomUUID()}`;
  const aliceKeys = { withWebhook: `alice-key-${randomUUID()}`, plain: `alice-key-${randomUUID()}` };
  const plainBody = sendBody({ bulkSendingId: SHARED.bulkSendingId, subject: 'Plain one' });

  /** Alice's ids, by kind; filled in beforeAll. */
  const ids: Record<string, string> = {};
  let aliceMessages: Record<string, any>[];
  let aliceEvents: Record<string, any>[];
  let bobMessage: Record<string, any>;
  let bobEvent: Record<string, any>;
  let bobAttachment: string;
  let aliceBefore: Awaited<ReturnType<typeof aliceState>>;

  const upload = (userId: string, content: string, fileName: string) =>
    t.http
      .post('/attachments')
      .set(bearer(userId))
      .attach('file', Buffer.from(content), { filename: fileName, contentType: 'application/pdf' })
      .expect(201);

  const deliveries = async (userId: string, query: Record<string, string | number> = {}) =>
    (
      await t.http
        .get('/user/webhook-deliveries')
        .query({ take: 100, ...query })
        .set(bearer(userId))
        .expect(200)
    ).body;

  async function waitForDelivered(userId: string, count: number): Promise<Record<string, any>[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { deliveries: found } = await deliveries(userId);
      if (found.length === count && found.every((d: { state: string }) => d.state === 'delivered')) return found;
      if (Date.now() > deadline)
        throw new Error(`${userId} never had ${count} delivered webhook events: ${JSON.stringify(found)}`);
      await sleep(200);
    }
  }

  /** Everything of Alice's that a request by someone else could change, from the database and the outside. */
  async function aliceState() {
    const [rows] = await t.db.query(
      `SELECT
         (SELECT coalesce(json_agg(json_build_object('id', id, 'status', status, 'updatedAt', updated_at, 'changes', status_changes) ORDER BY id), '[]')
            FROM messages WHERE user_id = $1) AS messages,
         (SELECT coalesce(json_agg(json_build_object('id', id, 'state', state, 'attempts', attempts, 'next', next_attempt_at) ORDER BY id), '[]')
            FROM webhook_events WHERE user_id = $1) AS events,
         (SELECT count(*)::int FROM webhook_attempts a JOIN webhook_events e ON e.id = a.event_id WHERE e.user_id = $1) AS "webhookAttempts",
         (SELECT count(*)::int FROM (SELECT data FROM pgboss.job UNION ALL SELECT data FROM pgboss.archive) j
            WHERE j.data->>'eventId' IN (SELECT id::text FROM webhook_events WHERE user_id = $1)
               OR j.data->>'messageId' IN (SELECT id::text FROM messages WHERE user_id = $1)) AS jobs,
         (SELECT coalesce(json_agg(json_build_object('id', id, 'size', size) ORDER BY id), '[]') FROM attachments WHERE user_id = $1) AS attachments,
         (SELECT coalesce(json_agg(json_build_object('key', key, 'at', created_at) ORDER BY key), '[]') FROM idempotency_keys WHERE user_id = $1)
            AS "idempotencyKeys",
         (SELECT coalesce(json_agg(json_build_object('id', id, 'verifiedAt', verified_at) ORDER BY id), '[]') FROM sending_domains WHERE user_id = $1)
            AS domains`,
      [alice],
    );
    return {
      ...rows,
      owned: await rowsOwnedBy(t.db, alice),
      webhookRequests: receiver.on(alicePath).length,
      mails: aliceMessages.map((m) => sink.attemptsFor(m.id)),
    };
  }

  beforeAll(async () => {
    await receiver.start();
    const smtpPort = await sink.start();
    t = await bootTestApp(
      {
        ROLE: 'all',
        SMTP_URL: sink.url(smtpPort),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_DELAYS: '1,1',
        WEBHOOK_TIMEOUT_MS: '2000',
      },
      { isolatedDatabase: true },
    );

    ids.attachment = (await upload(alice, '%PDF-1.4 alice', 'alice.pdf')).body.id;
    ids.domain = (
      await t.http.post('/domains').set(bearer(alice)).send({ name: 'billing.example.com' }).expect(201)
    ).body.id;
    const withWebhook = await t.http
      .post('/sender/send')
      .set(bearer(alice))
      .set('Idempotency-Key', aliceKeys.withWebhook)
      .send(sendBody({ ...SHARED, attachmentIds: [ids.attachment], webhook: { url: receiver.url(alicePath) } }))
      .expect(201);
    const plain = await t.http
      .post('/sender/send')
      .set(bearer(alice))
      .set('Idempotency-Key', aliceKeys.plain)
      .send(plainBody)
      .expect(201);

    bobAttachment = (await upload(bob, '%PDF-1.4 bob', 'bob.pdf')).body.id;
    const bobs = await t.http
      .post('/sender/send')
      .set(bearer(bob))
      .send(
        sendBody({
          ...SHARED,
          subject: "Bob's",
          attachmentIds: [bobAttachment],
          webhook: { url: receiver.url(bobPath), status: ['queued'] },
        }),
      )
      .expect(201);

    aliceMessages = [
      await waitForStatus(t.http, alice, withWebhook.body.id, 'sent'),
      await waitForStatus(t.http, alice, plain.body.id, 'sent'),
    ];
    bobMessage = await waitForStatus(t.http, bob, bobs.body.id, 'sent');
    aliceEvents = await waitForDelivered(alice, 3);
    [bobEvent] = await waitForDelivered(bob, 1);

    ids.message = aliceMessages[0].id;
    ids['message without webhook'] = aliceMessages[1].id;
    ids['webhook event (message.sent)'] = aliceEvents.find((e) => e.type === 'message.sent')!.id;
    ids['webhook event (message.queued)'] = aliceEvents.find((e) => e.type === 'message.queued')!.id;
    ids.senderId = aliceMessages[0].senderId;
    aliceBefore = await aliceState();
  }, TIMEOUT);

  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    await sink.stop();
  }, TIMEOUT);

  it('has the data it probes: what Alice owns is found by Alice through the same endpoints', async () => {
    expect(aliceEvents.map((e) => e.type).sort()).toEqual(['message.queued', 'message.sending', 'message.sent']);
    await t.http.get(`/user/messages/${ids.message}`).set(bearer(alice)).expect(200);
    await t.http.get(`/user/messages/${ids.message.toUpperCase()}`).set(bearer(alice)).expect(200);
    for (const path of ['content', 'attachments/0', 'raw'])
      await t.http.get(`/user/messages/${ids.message}/${path}`).set(bearer(alice)).expect(200);
    expect((await deliveries(alice, { messageId: ids.message })).total).toBe(3);
    expect(
      Object.values(ids).every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
    expect(aliceBefore.mails).toEqual([1, 1]);
    expect(aliceBefore.webhookRequests).toBe(3);
    expect(await aliceState()).toEqual(aliceBefore);
  });

  // Each takes the caller and the id to try; `expected` is the status an id that exists nowhere gets.
  const probes: Array<[string, number, (userId: string, id: string) => Test]> = [
    ['GET /user/messages/{id}', 404, (userId, id) => t.http.get(`/user/messages/${id}`).set(bearer(userId))],
    [
      'GET /user/messages/{id}/content',
      404,
      (userId, id) => t.http.get(`/user/messages/${id}/content`).set(bearer(userId)),
    ],
    [
      'GET /user/messages/{id}/attachments/0',
      404,
      (userId, id) => t.http.get(`/user/messages/${id}/attachments/0`).set(bearer(userId)),
    ],
    ['GET /user/messages/{id}/raw', 404, (userId, id) => t.http.get(`/user/messages/${id}/raw`).set(bearer(userId))],
    [
      'POST /user/messages/{id}/cancel',
      404,
      (userId, id) => t.http.post(`/user/messages/${id}/cancel`).set(bearer(userId)),
    ],
    [
      'GET /user/webhook-deliveries?messageId=',
      200,
      (userId, id) => t.http.get('/user/webhook-deliveries').query({ messageId: id }).set(bearer(userId)),
    ],
    [
      'GET /user/webhook-deliveries?messageId=&take=100&page=1',
      200,
      (userId, id) =>
        t.http.get('/user/webhook-deliveries').query({ messageId: id, take: 100, page: 1 }).set(bearer(userId)),
    ],
    [
      'POST /user/webhook-deliveries/{id}/replay',
      404,
      (userId, id) => t.http.post(`/user/webhook-deliveries/${id}/replay`).set(bearer(userId)),
    ],
    ['GET /domains/{id}', 404, (userId, id) => t.http.get(`/domains/${id}`).set(bearer(userId))],
    ['POST /domains/{id}/verify', 404, (userId, id) => t.http.post(`/domains/${id}/verify`).set(bearer(userId))],
    ['DELETE /domains/{id}', 404, (userId, id) => t.http.delete(`/domains/${id}`).set(bearer(userId))],
    [
      'POST /sender/send with attachmentIds: [id]',
      400,
      (userId, id) =>
        t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ attachmentIds: [id] })),
    ],
    [
      'POST /sender/send with attachmentIds: [own, id]',
      400,
      (userId, id) =>
        t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ attachmentIds: [bobAttachment, id] })),
    ],
  ];
  const idKinds = [
    'message',
    'message without webhook',
    'attachment',
    'webhook event (message.sent)',
    'webhook event (message.queued)',
    'senderId',
    'domain',
  ];
  const cases = probes.flatMap(([endpoint, expected, call]) =>
    idKinds.flatMap((kind) =>
      Object.keys(VARIANTS).map((variant) => [endpoint, kind, variant, expected, call] as const),
    ),
  );

  it.each(cases)(
    "%s: Alice's %s id (%s) is answered to Bob exactly like an id that exists nowhere",
    async (_endpoint, kind, variant, expected, call) => {
      const theirs = VARIANTS[variant](ids[kind]);
      const nowhere = VARIANTS[variant](nowhereLike(ids[kind]));
      const bobsOwnBefore = await rowsOwnedBy(t.db, bob);

      const foreign = await call(bob, theirs);
      const unknown = await call(bob, nowhere);

      // A malformed id may well be refused differently; as issued, the status is the one we know.
      if (variant !== 'without hyphens') expect(unknown.status).toBe(expected);
      expect(observe(foreign, theirs)).toEqual(observe(unknown, nowhere));
      expect(foreign.headers['content-type']).toMatch(
        foreign.status === 200 ? /^application\/json/ : /^application\/problem\+json/,
      );
      expect(foreign.text).not.toContain(alice);
      expect(await rowsOwnedBy(t.db, bob)).toEqual(bobsOwnBefore);
      expect(await aliceState()).toEqual(aliceBefore);
    },
  );

  it(
    "Bob replaying each of Alice's webhook events sends nothing, queues nothing and logs no attempt for Alice",
    async () => {
      for (const event of aliceEvents) {
        await t.http.post(`/user/webhook-deliveries/${event.id}/replay`).set(bearer(bob)).expect(404);
        await t.http.post(`/user/webhook-deliveries/${event.id.toUpperCase()}/replay`).set(bearer(bob)).expect(404);
      }
      // A replay queues its job in the request's own transaction, before the answer: the state
      // (jobs included) read after the answers shows whether one was queued, without waiting.
      expect(await aliceState()).toEqual(aliceBefore);
      expect(receiver.on(alicePath)).toHaveLength(3);
      const after = await deliveries(alice);
      expect(after.deliveries.map((d: any) => [d.id, d.state, d.attempts.length])).toEqual(
        aliceEvents.map((e) => [e.id, 'delivered', 1]),
      );
    },
    TIMEOUT,
  );

  describe('lists', () => {
    const today = new Date().toISOString().slice(0, 10);
    const filters: Array<Record<string, string | number | boolean>> = [
      {},
      { take: 100 },
      { includeStatusHistory: true },
      { fromEmail: SHARED.sender },
      { fromEmail: SHARED.sender.toUpperCase() },
      { toEmail: SHARED.to[0] },
      { toEmail: SHARED.to[0].toUpperCase() },
      { bulkSending: SHARED.bulkSendingId },
      { statuses: 'sent' },
      { statuses: 'queued,sending,sent,deferred,failed' },
      { startDate: today, endDate: today },
      { startDate: '2000-01-01T00:00:00Z', endDate: '2999-12-31T23:59:59+14:00' },
      {
        take: 100,
        page: 1,
        includeStatusHistory: true,
        fromEmail: SHARED.sender,
        toEmail: SHARED.to[0],
        bulkSending: SHARED.bulkSendingId,
        statuses: 'sent',
        startDate: today,
        endDate: today,
      },
    ];

    it.each(filters.map((f) => [JSON.stringify(f), f]))(
      "GET /user/messages?%s shows Bob his message and none of Alice's",
      async (_name, filter) => {
        const bobs = await t.http.get('/user/messages').query(filter).set(bearer(bob)).expect(200);
        const alices = await t.http.get('/user/messages').query(filter).set(bearer(alice)).expect(200);

        expect(bobs.body.messages.map((m: any) => [m.id, m.userId])).toEqual([[bobMessage.id, bob]]);
        expect(bobs.body.total).toBe(1);
        for (const id of Object.values(ids)) expect(bobs.text).not.toContain(id);
        expect(bobs.text).not.toContain(alice);
        // The same filter finds Alice's messages for Alice: Bob's answer is empty of them because they are hers.
        expect(alices.body.messages.every((m: any) => m.userId === alice)).toBe(true);
        expect(alices.body.messages.map((m: any) => m.id)).toContain(ids.message);
      },
    );

    it.each([{}, { startDate: today, endDate: today }])(
      "GET /user/stats?%j counts Bob's message and none of Alice's",
      async (query) => {
        const bobs = await t.http.get('/user/stats').query(query).set(bearer(bob)).expect(200);
        const alices = await t.http.get('/user/stats').query(query).set(bearer(alice)).expect(200);

        expect(bobs.body.totals).toMatchObject({ accepted: 1, byStatus: { sent: 1 } });
        expect(alices.body.totals).toMatchObject({ accepted: 2, byStatus: { sent: 2 } });
      },
    );

    it("GET /domains shows Bob none of Alice's domains", async () => {
      const response = await t.http.get('/domains').set(bearer(bob)).expect(200);

      expect(response.body).toEqual({ domains: [] });
      expect((await t.http.get('/domains').set(bearer(alice)).expect(200)).body.domains.map((d: any) => d.id)).toEqual([
        ids.domain,
      ]);
    });

    it("pages past Bob's own messages into nothing, not into Alice's", async () => {
      const page2 = await t.http.get('/user/messages').query({ take: 1, page: 2 }).set(bearer(bob)).expect(200);

      expect(page2.body).toMatchObject({ messages: [], total: 1, page: 2, hasNext: false });
    });

    it('gives Bob a senderId of his own for the address Alice also sends from', () => {
      expect(bobMessage.sender).toBe(aliceMessages[0].sender);
      expect(bobMessage.senderId).not.toBe(aliceMessages[0].senderId);
    });

    it.each<[{ take?: number; page?: number }]>([
      [{}],
      [{ take: 100 }],
      [{ take: 1, page: 1 }],
      [{ take: 1, page: 2 }],
    ])("GET /user/webhook-deliveries?%j lists Bob's events and none of Alice's", async (query) => {
      const response = await t.http.get('/user/webhook-deliveries').query(query).set(bearer(bob)).expect(200);

      expect(response.body.total).toBe(1);
      expect(response.body.deliveries.map((d: any) => d.id)).toEqual(query.page === 2 ? [] : [bobEvent.id]);
      for (const id of [...Object.values(ids), ...aliceEvents.map((e) => e.id)])
        expect(response.text).not.toContain(id);
      expect(response.text).not.toContain(alicePath);
    });
  });

  describe('Idempotency-Key, which names a stored answer per user', () => {
    const send = (userId: string, key: string, body: Record<string, unknown>) =>
      t.http.post('/sender/send').set(bearer(userId)).set('Idempotency-Key', key).send(body);

    /** A fresh send as its caller observes it, without what differs between any two sends and users. */
    const observeSend = (response: Response, userId: string) => {
      const { id, sentAt, senderId, userId: owner, recipients, ...rest } = response.body;
      expect(owner).toBe(userId);
      expect(Date.parse(sentAt)).not.toBeNaN();
      expect(senderId).toMatch(/^[0-9a-f-]{36}$/);
      // Each recipient's fate dates from the acceptance, as sentAt does: the two sends' moments differ.
      const fates = (recipients as { at: string }[]).map(({ at, ...fate }) => {
        expect(at).toBe(sentAt);
        return fate;
      });
      return { ...observe(response, id), body: { ...rest, recipients: fates } };
    };

    it("Alice's key with Alice's body gives Carol a new message of her own, not Alice's answer", async () => {
      // Ids of the same length, so that the two answers have the same length too.
      const carol = newUserId('carol');
      const cindy = newUserId('cindy');

      const reused = await send(carol, aliceKeys.plain, plainBody).expect(201);
      const fresh = await send(cindy, `alice-key-${randomUUID()}`, plainBody).expect(201);

      expect(reused.headers['idempotent-replayed']).toBeUndefined();
      expect(reused.body.id).not.toBe(aliceMessages[1].id);
      expect(observeSend(reused, carol)).toEqual(observeSend(fresh, cindy));
      expect(await aliceState()).toEqual(aliceBefore);

      // Alice's key still answers Alice with her own first answer.
      const replayed = await send(alice, aliceKeys.plain, plainBody).expect(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body.id).toBe(aliceMessages[1].id);
    });

    it("Alice's key with another body gives Carol 201, not the 422 Alice would get", async () => {
      const carol = newUserId('carol');
      const other = sendBody({ subject: 'Something else' });

      const reused = await send(carol, aliceKeys.withWebhook, other).expect(201);

      expect(reused.headers['idempotent-replayed']).toBeUndefined();
      expect(reused.body).toMatchObject({ userId: carol, subject: 'Something else' });
      await send(alice, aliceKeys.withWebhook, other).expect(422);
      expect(await aliceState()).toEqual(aliceBefore);
    });
  });
});
