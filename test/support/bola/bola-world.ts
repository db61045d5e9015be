// The world of the BOLA suites (docs/api.md#authentication): Alice owns real data, delivered by a real worker to a
// real SMTP sink and a real webhook receiver; Bob (and Carol) probe it. Every id kind Alice owns,
// her state as anyone else's request could change it, and how two answers are compared.
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { rowsOwnedBy, sendBody } from '../factories';
import { SmtpSink } from '../smtp-sink';
import { bootTestApp, TestApp } from '../test-app';
import { bearer, newUserId } from '../tokens';
import { Invitations } from '../../../src/auth/members/invitations';
import { ownOrigin, PASSWORD, sessionCookieOf } from '../members';
import { waitForStatus } from '../wait-for';
import { WebhookReceiver } from '../webhook-receiver';

export const TIMEOUT = 120_000;
const PLACEHOLDER = '<id>';
// Shared by Alice's and Bob's messages, so that a filter that forgot the owner would find both.
export const SHARED = {
  sender: 'billing@example.com',
  to: ['ada@example.com'],
  bulkSendingId: 'spring-campaign',
  contactId: 'contact-1',
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A random UUID of the same version as `id`: the same shape, naming nothing. */
export function nowhereLike(id: string): string {
  const random = randomUUID().split('');
  random[14] = id[14];
  return random.join('');
}

export const VARIANTS: Record<string, (id: string) => string> = {
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
export function observe(response: Response, id: string) {
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

/**
 * A member of `accountId` with `role`, signed in: the headers of its requests (the cookie, and our
 * Origin, which changes need). Invited as `npm run member` does, without a mail, so that the
 * account's messages stay those the tests made.
 */
export async function signedInMember(
  t: TestApp,
  accountId: string,
  role: 'owner' | 'admin' | 'developer' | 'viewer',
): Promise<{ id: string; headers: Record<string, string> }> {
  const { member, link } = await t.app
    .get(Invitations)
    .create(accountId, `${newUserId(role)}@example.com`, role, 'cli', () => Promise.resolve());
  const token = link.slice(link.lastIndexOf('/') + 1);
  const accepted = await t.http.post(`/invitations/${token}/accept`).send({ password: PASSWORD }).expect(200);
  return { id: member.id, headers: { Cookie: sessionCookieOf(accepted), ...ownOrigin(t) } };
}

/** The credentials each BOLA probe is made with: the account's JWT, and the session of an owner of its team. */
export const CREDENTIALS = ['JWT', "an owner's session"] as const;
export type Credential = (typeof CREDENTIALS)[number];

/** Alice's state: what a request by someone else must leave as it was. */
export type AliceState = Record<string, unknown>;

/**
 * For the calling describe: the app (ROLE=all, a database of its own) with Alice's and Bob's data
 * made before its tests, and what the tests read of it.
 */
export function aliceAndBob() {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  const t = {} as TestApp;

  const alice = newUserId('alice');
  const bob = newUserId('bob');
  const alicePath = `/hooks/alice/${randomUUID()}`;
  const bobPath = `/hooks/bob/${randomUUID()}`;
  const aliceKeys = { withWebhook: `alice-key-${randomUUID()}`, plain: `alice-key-${randomUUID()}` };
  const plainBody = sendBody({ bulkSendingId: SHARED.bulkSendingId, subject: 'Plain one' });

  /** Alice's ids, by kind; filled in beforeAll. */
  const ids: Record<string, string> = {};
  /** What beforeAll made, read by the tests once it has run. */
  const made = {} as {
    aliceMessages: Record<string, any>[];
    aliceEvents: Record<string, any>[];
    bobMessage: Record<string, any>;
    bobEvent: Record<string, any>;
    bobAttachment: string;
    aliceBefore: AliceState;
  };
  /** Bob's owner's session, made in beforeAll. */
  const bobSession: Record<string, string> = {};
  /** The headers of Bob's requests with `credential`. */
  const bobAs = (credential: Credential) => (credential === 'JWT' ? bearer(bob) : bobSession);

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
  async function aliceState(): Promise<AliceState> {
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
            AS domains,
         (SELECT coalesce(json_agg(json_build_object('id', id, 'role', role, 'status', status, 'email', email) ORDER BY id), '[]')
            FROM members WHERE account_id = $1) AS members,
         (SELECT count(*)::int FROM member_sessions s JOIN members m ON m.id = s.member_id WHERE m.account_id = $1) AS sessions,
         (SELECT count(*)::int FROM audit_log_entries WHERE user_id = $1) AS "auditEntries"`,
      [alice],
    );
    return {
      ...rows,
      owned: await rowsOwnedBy(t.db, alice),
      webhookRequests: receiver.on(alicePath).length,
      mails: made.aliceMessages.map((m) => sink.attemptsFor(m.id)),
    };
  }

  beforeAll(async () => {
    await receiver.start();
    const smtpPort = await sink.start();
    Object.assign(
      t,
      await bootTestApp(
        {
          ROLE: 'all',
          SMTP_URL: sink.url(smtpPort),
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          WEBHOOK_RETRY_DELAYS: '1,1',
          WEBHOOK_TIMEOUT_MS: '2000',
          // Bob probes every id with two credentials, well past 600 requests a minute: a 429 would hide the answer.
          RATE_LIMIT_PER_MINUTE: '100000',
        },
        { isolatedDatabase: true },
      ),
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

    made.bobAttachment = (await upload(bob, '%PDF-1.4 bob', 'bob.pdf')).body.id;
    const bobs = await t.http
      .post('/sender/send')
      .set(bearer(bob))
      .send(
        sendBody({
          ...SHARED,
          subject: "Bob's",
          attachmentIds: [made.bobAttachment],
          webhook: { url: receiver.url(bobPath), status: ['queued'] },
        }),
      )
      .expect(201);

    made.aliceMessages = [
      await waitForStatus(t.http, alice, withWebhook.body.id, 'sent'),
      await waitForStatus(t.http, alice, plain.body.id, 'sent'),
    ];
    made.bobMessage = await waitForStatus(t.http, bob, bobs.body.id, 'sent');
    made.aliceEvents = await waitForDelivered(alice, 3);
    [made.bobEvent] = await waitForDelivered(bob, 1);

    ids.message = made.aliceMessages[0].id;
    ids['message without webhook'] = made.aliceMessages[1].id;
    ids['webhook event (message.sent)'] = made.aliceEvents.find((e) => e.type === 'message.sent')!.id;
    ids['webhook event (message.queued)'] = made.aliceEvents.find((e) => e.type === 'message.queued')!.id;
    ids.senderId = made.aliceMessages[0].senderId;
    // Alice's team: an owner signed in, and an invitation not yet accepted.
    ids.member = (await signedInMember(t, alice, 'owner')).id;
    ids['invited member'] = (
      await t.app.get(Invitations).create(alice, 'invited@example.com', 'admin', 'cli', () => Promise.resolve())
    ).member.id;
    Object.assign(bobSession, (await signedInMember(t, bob, 'owner')).headers);
    made.aliceBefore = await aliceState();
  }, TIMEOUT);

  afterAll(async () => {
    await t.close?.();
    await receiver.stop();
    await sink.stop();
  }, TIMEOUT);

  return { t, receiver, sink, alice, bob, bobAs, alicePath, aliceKeys, plainBody, ids, made, deliveries, aliceState };
}
