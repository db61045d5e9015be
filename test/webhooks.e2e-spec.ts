// Webhooks (SPEC §6, §7): a real HTTP receiver on loopback (test/support/webhook-receiver.ts), a
// real SMTP sink, the real application. Every describe block whose apps deliver has a database of
// its own, so that no other test file's worker takes its jobs.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type TestAgent from 'supertest/lib/agent';
import { exitOf, startWorkerProcess, WorkerProcess } from './support/child-processes';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from './support/factories';
import { SmtpSink } from './support/smtp-sink';
import { bootTestApp, createIsolatedDatabase, dropDatabase, TestApp } from './support/test-app';
import { bearer, newUserId } from './support/tokens';
import { waitForStatus } from './support/wait-for';
import { ReceivedRequest, ReceiverReply, WebhookReceiver } from './support/webhook-receiver';

const TIMEOUT = 120_000;
const SIGNING_KEY = 'e2e-webhook-signing-key-0123456789-abcdefghijkl';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MESSAGE_FIELDS = [
  'id', 'to', 'subject', 'senderId', 'status', 'userId', 'sentAt', 'sender', 'bulkSendingId', 'contactId', 'priority', 'customPayload', 'statusHistory',
].sort();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const newPath = (label: string) => `/hooks/${label}/${randomUUID()}`;

/**
 * Standard Webhooks verification, written here from the specification and not from src: the key is
 * the base64 after `whsec_`, the MAC is HMAC-SHA256 over `id.timestamp.body`, and the header holds
 * space-separated `v1,<base64>` signatures of which one must match.
 */
function verifies(secret: string, id: string, timestamp: string, rawBody: string, signatureHeader: string): boolean {
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  return signatureHeader.split(' ').some((part) => {
    const [version, signature] = part.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function header(request: ReceivedRequest, name: string): string {
  const value = request.headers[name];
  if (typeof value !== 'string') throw new Error(`The request to ${request.path} has no single ${name} header: ${JSON.stringify(request.headers)}`);
  return value;
}

const verifiesRequest = (secret: string, request: ReceivedRequest) =>
  verifies(secret, header(request, 'webhook-id'), header(request, 'webhook-timestamp'), request.rawBody, header(request, 'webhook-signature'));

interface WebhookEvent {
  type: string;
  timestamp: string;
  data: { message: Record<string, any> & { status: string; statusHistory: { status: string; at: string; detail: string | null }[] }; sequence: number };
}

const eventOf = (request: ReceivedRequest): WebhookEvent => JSON.parse(request.rawBody);

/** The distinct events among requests (a retry repeats a webhook-id), ordered by sequence. */
function distinctEvents(requests: ReceivedRequest[]): { id: string; event: WebhookEvent }[] {
  const byId = new Map<string, WebhookEvent>();
  for (const r of requests) byId.set(header(r, 'webhook-id'), eventOf(r));
  return [...byId].map(([id, event]) => ({ id, event })).sort((a, b) => a.event.data.sequence - b.event.data.sequence);
}

async function secretOf(http: TestAgent, userId: string): Promise<string> {
  const { body } = await http.get('/user/webhook-secret').set(bearer(userId)).expect(200);
  return body.secret;
}

async function deliveriesOf(http: TestAgent, userId: string, query: Record<string, string | number> = {}) {
  const { body } = await http.get('/user/webhook-deliveries').query(query).set(bearer(userId)).expect(200);
  return body;
}

/** Polls the delivery log of one message until `done` holds for its deliveries. */
async function waitForLog(http: TestAgent, userId: string, messageId: string, done: (deliveries: any[]) => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { deliveries } = await deliveriesOf(http, userId, { messageId, take: 100 });
    if (done(deliveries)) return deliveries as any[];
    if (Date.now() > deadline) throw new Error(`The delivery log of ${messageId} never showed ${what}: ${JSON.stringify(deliveries, null, 1)}`);
    await sleep(100);
  }
}

const allIn = (state: string, count: number) => (deliveries: any[]) => deliveries.length === count && deliveries.every((d) => d.state === state);

describe('webhook delivery (ROLE=all, private networks allowed)', () => {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  let t: TestApp;

  beforeAll(async () => {
    await receiver.start();
    const smtpPort = await sink.start();
    t = await bootTestApp(
      {
        ROLE: 'all',
        SMTP_URL: sink.url(smtpPort),
        DELIVERY_RETRY_DELAYS: '1',
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_RETRY_DELAYS: '1,1',
        WEBHOOK_TIMEOUT_MS: '500',
        WEBHOOK_SIGNING_KEY: SIGNING_KEY,
      },
      { isolatedDatabase: true },
    );
  }, TIMEOUT);

  afterEach(() => {
    receiver.reply = () => ({ status: 200 });
    sink.reply = () => 'accept';
  });

  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    await sink.stop();
  }, TIMEOUT);

  const send = async (userId: string, overrides: Record<string, unknown> = {}) =>
    (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201)).body;

  /** Answers requests to `path` with `script`, and every other request with 200. */
  const scriptFor = (path: string, script: (attempt: number) => ReceiverReply) => {
    receiver.reply = (request, attempt) => (request.path === path ? script(attempt) : { status: 200 });
  };

  describe('signature', () => {
    it(
      'signs every event the Standard Webhooks way with the secret GET /user/webhook-secret serves its user',
      async () => {
        const userId = newUserId('sig');
        const path = newPath('sig');
        await send(userId, { webhook: { url: receiver.url(path) } });
        await receiver.waitFor(() => receiver.on(path).filter((r) => r.answered === 200).length >= 3, 'three events');
        const secret = await secretOf(t.http, userId);
        const otherSecret = await secretOf(t.http, newUserId('other'));
        expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
        expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
        expect(otherSecret).not.toBe(secret);

        const requests = receiver.on(path);
        expect(requests).toHaveLength(3);
        expect(new Set(requests.map((r) => header(r, 'webhook-id'))).size).toBe(3);
        for (const request of requests) {
          expect(request.method).toBe('POST');
          expect(header(request, 'content-type')).toMatch(/^application\/json/);
          expect(header(request, 'webhook-id')).toMatch(UUID);
          const timestamp = header(request, 'webhook-timestamp');
          expect(timestamp).toMatch(/^\d{10}$/);
          expect(Math.abs(Number(timestamp) - request.receivedAt / 1000)).toBeLessThan(10);
          expect(header(request, 'webhook-signature')).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

          const id = header(request, 'webhook-id');
          const signature = header(request, 'webhook-signature');
          expect(verifies(secret, id, timestamp, request.rawBody, signature)).toBe(true);
          // Anything changed, and it no longer verifies.
          const tampered = request.rawBody.replace('"message.', '"massage.');
          expect(tampered).not.toBe(request.rawBody);
          expect(verifies(secret, id, timestamp, tampered, signature)).toBe(false);
          expect(verifies(secret, id, timestamp, `${request.rawBody} `, signature)).toBe(false);
          expect(verifies(secret, randomUUID(), timestamp, request.rawBody, signature)).toBe(false);
          expect(verifies(secret, id, String(Number(timestamp) + 1), request.rawBody, signature)).toBe(false);
          expect(verifies(otherSecret, id, timestamp, request.rawBody, signature)).toBe(false);
        }
      },
      TIMEOUT,
    );
  });

  describe('payload', () => {
    it(
      'carries the full Message as it stood at each status change, numbered by sequence, and matches the delivery log',
      async () => {
        const userId = newUserId('payload');
        const path = newPath('payload');
        const accepted = await send(userId, {
          to: ['ada@example.com', 'grace@example.com'],
          bulkSendingId: 'spring-campaign',
          contactId: 'contact-42',
          priority: 'high',
          customPayload: { orderId: 'A-1001', tenant: 'acme' },
          webhook: { url: receiver.url(path), status: [] },
        });
        const final = await waitForStatus(t.http, userId, accepted.id, 'sent');
        await receiver.waitFor(() => receiver.on(path).filter((r) => r.answered === 200).length >= 3, 'three events');
        const events = distinctEvents(receiver.on(path));

        expect(events.map(({ event }) => [event.type, event.data.sequence])).toEqual([
          ['message.queued', 1],
          ['message.sending', 2],
          ['message.sent', 3],
        ]);
        expect(final.statusHistory.map((e: { status: string }) => e.status)).toEqual(['queued', 'sending', 'sent']);
        const { statusHistory, ...message } = final;
        expect(message).toMatchObject({ bulkSendingId: 'spring-campaign', contactId: 'contact-42', priority: 'high', customPayload: { orderId: 'A-1001', tenant: 'acme' } });
        for (const { event } of events) {
          expect(Object.keys(event).sort()).toEqual(['data', 'timestamp', 'type']);
          expect(Object.keys(event.data).sort()).toEqual(['message', 'sequence']);
          expect(Object.keys(event.data.message).sort()).toEqual(MESSAGE_FIELDS);
          const n = event.data.sequence;
          const status = event.type.replace(/^message\./, '');
          expect(event.data.message).toEqual({ ...message, status, statusHistory: statusHistory.slice(0, n) });
          expect(event.data.message.statusHistory.at(-1)!.status).toBe(status);
          expect(event.timestamp).toMatch(ISO_UTC);
          // The event is created with the status change it reports.
          expect(Math.abs(Date.parse(event.timestamp) - Date.parse(statusHistory[n - 1].at))).toBeLessThan(1000);
        }

        const log = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 3), 'three delivered events');
        // Newest first.
        expect(log.map((d) => d.sequence)).toEqual([3, 2, 1]);
        for (const delivery of log) {
          const { id, event } = events.find((e) => e.event.data.sequence === delivery.sequence)!;
          expect(delivery).toEqual({
            id,
            messageId: accepted.id,
            type: event.type,
            sequence: event.data.sequence,
            url: receiver.url(path),
            state: 'delivered',
            createdAt: event.timestamp,
            nextAttemptAt: null,
            attempts: [{ attemptedAt: expect.stringMatching(ISO_UTC), statusCode: 200, durationMs: expect.any(Number), error: null }],
          });
        }
      },
      TIMEOUT,
    );
  });

  describe('selection by webhook.status', () => {
    it(
      "status ['sent'] delivers message.sent and nothing else",
      async () => {
        const userId = newUserId('only-sent');
        const path = newPath('only-sent');
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        await waitForStatus(t.http, userId, accepted.id, 'sent');
        await receiver.waitFor(() => receiver.on(path).some((r) => r.answered === 200), 'message.sent');
        // Time for any other event to have arrived.
        await sleep(2000);
        const events = distinctEvents(receiver.on(path));
        expect(events.map(({ event }) => [event.type, event.data.sequence, event.data.message.status])).toEqual([['message.sent', 3, 'sent']]);
        expect(receiver.on(path)).toHaveLength(1);
        const log = await deliveriesOf(t.http, userId, { messageId: accepted.id });
        expect(log.total).toBe(1);
        expect(log.deliveries.map((d: any) => [d.type, d.state])).toEqual([['message.sent', 'delivered']]);
      },
      TIMEOUT,
    );

    it(
      'an empty status list and an absent one both deliver queued, sending and sent',
      async () => {
        const userId = newUserId('every');
        const emptyPath = newPath('empty');
        const absentPath = newPath('absent');
        const empty = await send(userId, { webhook: { url: receiver.url(emptyPath), status: [] } });
        const absent = await send(userId, { webhook: { url: receiver.url(absentPath) } });
        await waitForStatus(t.http, userId, empty.id, 'sent');
        await waitForStatus(t.http, userId, absent.id, 'sent');
        for (const [path, id] of [[emptyPath, empty.id], [absentPath, absent.id]]) {
          await receiver.waitFor(() => receiver.on(path).filter((r) => r.answered === 200).length >= 3, `three events at ${path}`);
          const events = distinctEvents(receiver.on(path));
          expect(events.map(({ event }) => [event.type, event.data.message.id])).toEqual([
            ['message.queued', id],
            ['message.sending', id],
            ['message.sent', id],
          ]);
        }
      },
      TIMEOUT,
    );

    it(
      'a message without webhook causes no request and no entry in the delivery log',
      async () => {
        const userId = newUserId('no-hook');
        const accepted = await send(userId);
        await waitForStatus(t.http, userId, accepted.id, 'sent');
        await sleep(2000);
        expect(receiver.requests.filter((r) => r.rawBody.includes(accepted.id))).toEqual([]);
        expect(await deliveriesOf(t.http, userId, { messageId: accepted.id })).toMatchObject({ deliveries: [], total: 0, messageId: accepted.id });
        expect(await deliveriesOf(t.http, userId)).toMatchObject({ deliveries: [], total: 0, totalPages: 0, hasNext: false, messageId: null });
      },
      TIMEOUT,
    );

    it(
      'a 4xx SMTP reply then success delivers the deferred event and the second sending too',
      async () => {
        const userId = newUserId('deferred');
        const path = newPath('deferred');
        const subject = `Deferred ${randomUUID()}`;
        sink.reply = (mail, attempt) => (mail.subject === subject && attempt === 1 ? { code: 451, message: '4.3.0 Try again later' } : 'accept');
        const accepted = await send(userId, { subject, webhook: { url: receiver.url(path) } });
        const final = await waitForStatus(t.http, userId, accepted.id, 'sent');
        await receiver.waitFor(() => receiver.on(path).filter((r) => r.answered === 200).length >= 5, 'five events');
        const events = distinctEvents(receiver.on(path));
        expect(events.map(({ event }) => [event.type, event.data.sequence])).toEqual([
          ['message.queued', 1],
          ['message.sending', 2],
          ['message.deferred', 3],
          ['message.sending', 4],
          ['message.sent', 5],
        ]);
        const deferred = events[2].event.data.message;
        expect(deferred.status).toBe('deferred');
        expect(deferred.statusHistory).toEqual(final.statusHistory.slice(0, 3));
        expect(deferred.statusHistory[2].detail).toContain('451 4.3.0 Try again later');
        expect(events[4].event.data.message.statusHistory).toEqual(final.statusHistory);
      },
      TIMEOUT,
    );
  });

  describe('retries', () => {
    it(
      'retries a 500 with the same webhook-id and body, and logs both attempts',
      async () => {
        const userId = newUserId('retry');
        const path = newPath('retry');
        scriptFor(path, (attempt) => ({ status: attempt === 1 ? 500 : 200 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });

        // Between the attempts the log says when the next one is due.
        const between = await waitForLog(t.http, userId, accepted.id, (d) => d.length === 1 && d[0].attempts.length === 1, 'the first attempt');
        expect(between[0]).toMatchObject({ state: 'pending', attempts: [{ statusCode: 500, error: null }] });
        expect(between[0].nextAttemptAt).toMatch(ISO_UTC);
        const due = Date.parse(between[0].nextAttemptAt) - Date.parse(between[0].attempts[0].attemptedAt);
        expect(due).toBeGreaterThanOrEqual(900);
        expect(due).toBeLessThan(5000);

        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        const requests = receiver.on(path);
        expect(requests.map((r) => r.answered)).toEqual([500, 200]);
        expect(requests.map((r) => header(r, 'webhook-id'))).toEqual([delivery.id, delivery.id]);
        expect(requests[1].rawBody).toBe(requests[0].rawBody);
        const secret = await secretOf(t.http, userId);
        expect(requests.map((r) => verifiesRequest(secret, r))).toEqual([true, true]);
        expect(delivery.attempts.map((a: any) => [a.statusCode, a.error])).toEqual([[500, null], [200, null]]);
        expect(Date.parse(delivery.attempts[1].attemptedAt) - Date.parse(delivery.attempts[0].attemptedAt)).toBeGreaterThanOrEqual(900);
        expect(delivery.nextAttemptAt).toBeNull();
      },
      TIMEOUT,
    );

    it(
      'stops at a 410: one request, state gone',
      async () => {
        const userId = newUserId('gone');
        const path = newPath('gone');
        scriptFor(path, () => ({ status: 410 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('gone', 1), 'a gone event');
        // Longer than both retry delays.
        await sleep(3000);
        expect(receiver.on(path).map((r) => r.answered)).toEqual([410]);
        const [after] = (await deliveriesOf(t.http, userId, { messageId: accepted.id })).deliveries;
        expect(after).toMatchObject({ id: delivery.id, state: 'gone', nextAttemptAt: null });
        expect(after.attempts.map((a: any) => a.statusCode)).toEqual([410]);
      },
      TIMEOUT,
    );

    it(
      'gives up on a receiver slower than WEBHOOK_TIMEOUT_MS, logs an error without status code, and retries',
      async () => {
        const userId = newUserId('slow');
        const path = newPath('slow');
        scriptFor(path, (attempt) => (attempt === 1 ? { status: 200, delayMs: 3000 } : { status: 200 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        const [timedOut, succeeded] = delivery.attempts;
        expect(delivery.attempts).toHaveLength(2);
        expect(timedOut).toMatchObject({ statusCode: null, error: expect.stringMatching(/500 ms/) });
        expect(timedOut.durationMs).toBeGreaterThanOrEqual(450);
        expect(timedOut.durationMs).toBeLessThan(2500);
        expect(succeeded).toMatchObject({ statusCode: 200, error: null });
        const requests = receiver.on(path);
        expect(requests.map((r) => header(r, 'webhook-id'))).toEqual([delivery.id, delivery.id]);
        // The first request's client hung up before the receiver answered.
        expect(requests[0].clientGone).toBe(true);
        expect(requests[0].answered).toBeUndefined();
      },
      TIMEOUT,
    );

    it(
      'ends failed after 1 + retries attempts, and a replay once the receiver recovers delivers it',
      async () => {
        const userId = newUserId('failing');
        const path = newPath('failing');
        scriptFor(path, () => ({ status: 503 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [failed] = await waitForLog(t.http, userId, accepted.id, allIn('failed', 1), 'a failed event');
        await sleep(3000);
        expect(receiver.on(path).map((r) => r.answered)).toEqual([503, 503, 503]);
        const [after] = (await deliveriesOf(t.http, userId, { messageId: accepted.id })).deliveries;
        expect(after).toMatchObject({ id: failed.id, state: 'failed', nextAttemptAt: null });
        expect(after.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503]);

        scriptFor(path, () => ({ status: 204 }));
        const replay = await t.http.post(`/user/webhook-deliveries/${failed.id}/replay`).set(bearer(userId)).expect(202);
        expect(replay.body).toEqual({ id: failed.id, state: 'pending' });
        const [delivered] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'the replay delivered');
        expect(delivered.attempts.map((a: any) => a.statusCode)).toEqual([503, 503, 503, 204]);
        expect(receiver.on(path).map((r) => header(r, 'webhook-id'))).toEqual([failed.id, failed.id, failed.id, failed.id]);
      },
      TIMEOUT,
    );

    it.each([302, 307])(
      'does not follow a %i redirect and counts it as a failure',
      async (code) => {
        const userId = newUserId('redirect');
        const path = newPath('redirect');
        const elsewhere = newPath('redirected-to');
        scriptFor(path, () => ({ status: code, headers: { location: receiver.url(elsewhere) } }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [failed] = await waitForLog(t.http, userId, accepted.id, allIn('failed', 1), 'a failed event');
        await sleep(1500);
        expect(failed.attempts.map((a: any) => a.statusCode)).toEqual([code, code, code]);
        expect(receiver.on(path)).toHaveLength(3);
        expect(receiver.on(elsewhere)).toEqual([]);
      },
      TIMEOUT,
    );
  });

  describe('replay', () => {
    it(
      'POST /user/webhook-deliveries/{id}/replay answers 202 and sends the same event again',
      async () => {
        const userId = newUserId('replay');
        const path = newPath('replay');
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        expect(receiver.on(path)).toHaveLength(1);

        const response = await t.http.post(`/user/webhook-deliveries/${delivery.id}/replay`).set(bearer(userId)).expect(202);
        expect(response.body).toEqual({ id: delivery.id, state: 'pending' });
        await receiver.waitFor(() => receiver.on(path).filter((r) => r.answered === 200).length >= 2, 'the replayed event');
        const [first, again] = receiver.on(path);
        expect(header(again, 'webhook-id')).toBe(delivery.id);
        expect(again.rawBody).toBe(first.rawBody);
        expect(verifiesRequest(await secretOf(t.http, userId), again)).toBe(true);
        const [after] = await waitForLog(t.http, userId, accepted.id, (d) => d[0]?.attempts.length === 2 && d[0].state === 'delivered', 'two attempts');
        expect(after.attempts.map((a: any) => a.statusCode)).toEqual([200, 200]);
      },
      TIMEOUT,
    );

    it(
      'adds nothing for a pending event, whose next attempt is already queued: no duplicate requests',
      async () => {
        const userId = newUserId('replay-pending');
        const path = newPath('replay-pending');
        scriptFor(path, (attempt) => ({ status: attempt === 1 ? 500 : 200 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [pending] = await waitForLog(t.http, userId, accepted.id, (d) => d.length === 1 && d[0].attempts.length === 1, 'the first attempt');
        expect(pending.state).toBe('pending');

        for (let i = 0; i < 2; i++) {
          const response = await t.http.post(`/user/webhook-deliveries/${pending.id}/replay`).set(bearer(userId)).expect(202);
          expect(response.body).toEqual({ id: pending.id, state: 'pending' });
        }
        const [delivered] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        await sleep(2000);
        expect(receiver.on(path).map((r) => r.answered)).toEqual([500, 200]);
        expect(delivered.attempts.map((a: any) => a.statusCode)).toEqual([500, 200]);
      },
      TIMEOUT,
    );

    it(
      "answers 404, alike, for another user's event, an unknown id and a malformed one, and sends nothing",
      async () => {
        const owner = newUserId('owner');
        const intruder = newUserId('intruder');
        const path = newPath('foreign');
        const accepted = await send(owner, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, owner, accepted.id, allIn('delivered', 1), 'a delivered event');

        const foreign = await t.http.post(`/user/webhook-deliveries/${delivery.id}/replay`).set(bearer(intruder)).expect(404);
        const unknown = await t.http.post(`/user/webhook-deliveries/${randomUUID()}/replay`).set(bearer(intruder)).expect(404);
        const malformed = await t.http.post('/user/webhook-deliveries/not-a-uuid/replay').set(bearer(intruder)).expect(404);
        const ownersUnknown = await t.http.post(`/user/webhook-deliveries/${randomUUID()}/replay`).set(bearer(owner)).expect(404);
        for (const response of [foreign, unknown, malformed, ownersUnknown]) {
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(Object.keys(response.body).sort()).toEqual(['detail', 'requestId', 'status', 'title', 'type']);
          expect({ ...response.body, requestId: '', detail: '' }).toEqual({ ...unknown.body, requestId: '', detail: '' });
          expect(response.body.status).toBe(404);
          expect(response.body.detail).not.toContain(owner);
        }
        expect(foreign.body.detail).toBe(`Webhook delivery ${delivery.id} does not exist.`);

        await sleep(2000);
        expect(receiver.on(path)).toHaveLength(1);
        const [after] = (await deliveriesOf(t.http, owner, { messageId: accepted.id })).deliveries;
        expect(after).toMatchObject({ state: 'delivered', attempts: [{ statusCode: 200 }] });
        expect(after.attempts).toHaveLength(1);
      },
      TIMEOUT,
    );
  });

  describe('GET /user/webhook-deliveries', () => {
    it(
      "never lists another user's events, with or without messageId",
      async () => {
        const alice = newUserId('alice');
        const bob = newUserId('bob');
        const path = newPath('bola');
        const alices = await send(alice, { webhook: { url: receiver.url(path) } });
        const bobs = await send(bob, { webhook: { url: receiver.url(path), status: ['queued'] } });
        await waitForLog(t.http, alice, alices.id, allIn('delivered', 3), 'three delivered events');
        await waitForLog(t.http, bob, bobs.id, allIn('delivered', 1), 'one delivered event');

        const bobsAll = await deliveriesOf(t.http, bob);
        expect(bobsAll.total).toBe(1);
        expect(bobsAll.deliveries.map((d: any) => [d.messageId, d.type])).toEqual([[bobs.id, 'message.queued']]);
        const bobsViewOfAlice = await deliveriesOf(t.http, bob, { messageId: alices.id });
        expect(bobsViewOfAlice).toEqual({ deliveries: [], take: 10, page: 1, skip: 0, total: 0, totalPages: 0, hasNext: false, messageId: alices.id });

        const alicesAll = await deliveriesOf(t.http, alice);
        expect(alicesAll.total).toBe(3);
        expect(alicesAll.deliveries.map((d: any) => d.messageId)).toEqual([alices.id, alices.id, alices.id]);
        expect((await deliveriesOf(t.http, alice, { messageId: bobs.id })).total).toBe(0);
      },
      TIMEOUT,
    );

    it(
      'pages like the message list',
      async () => {
        const userId = newUserId('pages');
        const path = newPath('pages');
        const accepted = await send(userId, { webhook: { url: receiver.url(path) } });
        await waitForLog(t.http, userId, accepted.id, allIn('delivered', 3), 'three delivered events');
        const first = await deliveriesOf(t.http, userId, { take: 2, page: 1 });
        expect(first).toMatchObject({ take: 2, page: 1, skip: 0, total: 3, totalPages: 2, hasNext: true });
        expect(first.deliveries.map((d: any) => d.sequence)).toEqual([3, 2]);
        const second = await deliveriesOf(t.http, userId, { take: 2, page: 2, messageId: accepted.id });
        expect(second).toMatchObject({ take: 2, page: 2, skip: 2, total: 3, totalPages: 2, hasNext: false, messageId: accepted.id });
        expect(second.deliveries.map((d: any) => d.sequence)).toEqual([1]);
        const past = await deliveriesOf(t.http, userId, { take: 2, page: 3 });
        expect(past).toMatchObject({ deliveries: [], page: 3, skip: 4, total: 3, hasNext: false });
      },
      TIMEOUT,
    );

    it.each([
      ['messageId', 'not-a-uuid'], ['messageId', '123'],
      ['take', '0'], ['take', '101'], ['take', '1.5'], ['take', 'ten'], ['take', '-1'], ['take', ''],
      ['page', '0'], ['page', 'x'], ['page', '1e3'],
    ])('refuses %s=%s with 400 naming it', async (name, value) => {
      const response = await t.http.get(`/user/webhook-deliveries?${name}=${encodeURIComponent(value)}`).set(bearer(newUserId())).expect(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([name]);
    });

    it('refuses an unknown parameter, and every webhook endpoint wants a token', async () => {
      const unknown = await t.http.get('/user/webhook-deliveries?limit=5').set(bearer(newUserId())).expect(400);
      expect(unknown.body.errors).toEqual([{ field: 'limit', message: 'is not a field of this request' }]);
      for (const call of [
        t.http.get('/user/webhook-secret'),
        t.http.get('/user/webhook-deliveries'),
        t.http.post(`/user/webhook-deliveries/${randomUUID()}/replay`),
      ]) {
        const response = await call.expect(401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    });
  });
});

describe('the signing secret', () => {
  const opened: TestApp[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const app of opened.splice(0)) await app.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }, TIMEOUT);

  const boot = async (env: Record<string, string>) => {
    const app = await bootTestApp(env);
    opened.push(app);
    return app;
  };

  it(
    'is per user, stable across calls, and across a restart with the same WEBHOOK_SIGNING_KEY',
    async () => {
      const ada = newUserId('ada');
      const grace = newUserId('grace');
      const first = await boot({ WEBHOOK_SIGNING_KEY: SIGNING_KEY });
      const adas = await secretOf(first.http, ada);
      expect(await secretOf(first.http, ada)).toBe(adas);
      expect(await secretOf(first.http, grace)).not.toBe(adas);
      await first.close();
      opened.splice(opened.indexOf(first), 1);

      const restarted = await boot({ WEBHOOK_SIGNING_KEY: SIGNING_KEY });
      expect(await secretOf(restarted.http, ada)).toBe(adas);
      const otherKey = await boot({ WEBHOOK_SIGNING_KEY: `${SIGNING_KEY}-rotated` });
      expect(await secretOf(otherKey.http, ada)).not.toBe(adas);
    },
    TIMEOUT,
  );

  it(
    'without WEBHOOK_SIGNING_KEY, is kept in DATA_DIR across a restart',
    async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'mailroom-webhook-key-'));
      dirs.push(dataDir);
      const userId = newUserId('keyfile');
      const first = await boot({ DATA_DIR: dataDir });
      const secret = await secretOf(first.http, userId);
      await first.close();
      opened.splice(opened.indexOf(first), 1);
      const again = await boot({ DATA_DIR: dataDir });
      expect(await secretOf(again.http, userId)).toBe(secret);
      const elsewhere = await boot({});
      expect(await secretOf(elsewhere.http, userId)).not.toBe(secret);
    },
    TIMEOUT,
  );
});

describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset)', () => {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  let t: TestApp;

  beforeAll(async () => {
    await receiver.start();
    const smtpPort = await sink.start();
    t = await bootTestApp(
      { ROLE: 'all', SMTP_URL: sink.url(smtpPort), WEBHOOK_RETRY_DELAYS: '1,1', WEBHOOK_TIMEOUT_MS: '500' },
      { isolatedDatabase: true },
    );
  }, TIMEOUT);

  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    await sink.stop();
  }, TIMEOUT);

  it.each([
    'http://127.0.0.1/hook',
    'http://127.0.0.1:8080/hook',
    'https://127.0.0.1/hook',
    'http://10.0.0.1/hook',
    'http://172.16.5.4/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:169.254.169.254]/latest/meta-data',
    'http://[::ffff:7f00:1]/hook',
    'http://[::7f00:1]/hook',
    'http://0x7f000001/hook',
    'http://[64:ff9b::7f00:1]/hook',
    'http://[::]/hook',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    'http://100.64.0.1/',
    'http://0.0.0.0/hook',
    'http://224.0.0.1/hook',
  ])('refuses %s with 400 naming webhook.url, and stores nothing', async (url) => {
    const userId = newUserId('ssrf');
    const response = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody({ webhook: { url } })).expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual([{ field: 'webhook.url', message: expect.stringMatching(/private, loopback or link-local/) }]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM webhook_events WHERE user_id = $1`, [userId]);
    expect(count).toBe(0);
  });

  it('refuses a webhook URL with a user name or password', async () => {
    const userId = newUserId('userinfo');
    const response = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ webhook: { url: 'https://user:secret@hooks.example.com/mailroom' } }))
      .expect(400);
    expect(response.body.errors).toEqual([{ field: 'webhook.url', message: 'must not contain a user name or password' }]);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 0 });
  });

  it('accepts a public address at send time', async () => {
    const userId = newUserId('public');
    // 'failed' never happens to a message the sink accepts, so no request leaves the machine.
    const response = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ webhook: { url: 'http://93.184.215.14/hook', status: ['failed'] } }))
      .expect(201);
    await waitForStatus(t.http, userId, response.body.id, 'sent');
    expect((await deliveriesOf(t.http, userId)).total).toBe(0);
  });

  it(
    'accepts a hostname that resolves to loopback, then refuses it on every attempt without a request',
    async () => {
      const userId = newUserId('localhost');
      const url = `http://localhost:${receiver.listeningPort}/hook`;
      const accepted = (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody({ webhook: { url } })).expect(201)).body;
      await waitForStatus(t.http, userId, accepted.id, 'sent');
      const log = await waitForLog(t.http, userId, accepted.id, allIn('failed', 3), 'three failed events');
      expect(log.map((d) => d.type)).toEqual(['message.sent', 'message.sending', 'message.queued']);
      for (const delivery of log) {
        expect(delivery.url).toBe(url);
        expect(delivery.attempts).toHaveLength(3);
        for (const attempt of delivery.attempts) {
          expect(attempt).toMatchObject({ statusCode: null, error: expect.stringMatching(/^localhost resolves to .*may not reach/) });
        }
      }
      expect(receiver.requests).toEqual([]);
    },
    TIMEOUT,
  );
});

describe('durability: events outlive the processes (ROLE=api, then real worker processes)', () => {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  let smtpUrl: string;
  let databaseUrl: string;
  let api: TestApp;
  const workers: WorkerProcess[] = [];
  const held: (() => void)[] = [];

  // The same key for the API and the workers: the API serves the secret, the workers sign with it.
  const env = {
    SMTP_URL: '',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_SIGNING_KEY: SIGNING_KEY,
    WEBHOOK_RETRY_DELAYS: '1,1',
    WEBHOOK_TIMEOUT_MS: '5000',
    // pg-boss maintenance (which takes back the jobs of dead workers) runs every lease/2 seconds.
    DELIVERY_LEASE_SECONDS: '2',
  };

  beforeAll(async () => {
    await receiver.start();
    smtpUrl = sink.url(await sink.start());
    env.SMTP_URL = smtpUrl;
    databaseUrl = await createIsolatedDatabase(process.env.TEST_DATABASE_URL!);
    api = await bootTestApp({ ...env, DATABASE_URL: databaseUrl });
  }, TIMEOUT);

  afterEach(async () => {
    for (const release of held.splice(0)) release();
    receiver.reply = () => ({ status: 200 });
    for (const worker of workers.splice(0)) await worker.stop();
  }, TIMEOUT);

  afterAll(async () => {
    try {
      await api?.close();
      await receiver.stop();
      await sink.stop();
    } finally {
      if (databaseUrl) await dropDatabase(databaseUrl);
    }
  }, TIMEOUT);

  function spawnWorker(): WorkerProcess {
    const worker = startWorkerProcess({ ...env, DATABASE_URL: databaseUrl });
    workers.push(worker);
    return worker;
  }

  const webhookJobs = async (eventId: string): Promise<string[]> =>
    (await api.db.query(`SELECT state FROM pgboss.job WHERE name = 'webhook-delivery' AND data->>'eventId' = $1 ORDER BY created_on`, [eventId])).map(
      (r: { state: string }) => r.state,
    );

  it(
    'records the events with the status change while no worker runs, and a worker started later delivers them',
    async () => {
      const userId = newUserId('outbox');
      const paths = [newPath('outbox'), newPath('outbox')];
      const ids: string[] = [];
      for (const path of paths) {
        ids.push((await api.http.post('/sender/send').set(bearer(userId)).send(sendBody({ webhook: { url: receiver.url(path) } })).expect(201)).body.id);
      }
      await sleep(2500);
      expect(receiver.requests).toEqual([]);
      const queuedEvents: string[] = [];
      for (const id of ids) {
        const { deliveries } = await deliveriesOf(api.http, userId, { messageId: id });
        expect(deliveries).toEqual([expect.objectContaining({ messageId: id, type: 'message.queued', sequence: 1, state: 'pending', attempts: [] })]);
        expect(await webhookJobs(deliveries[0].id)).toEqual(['created']);
        queuedEvents.push(deliveries[0].id);
      }

      const worker = spawnWorker();
      try {
        for (const path of paths) {
          await receiver.waitFor(() => receiver.on(path).filter((r) => r.answered === 200).length >= 3, `three events at ${path}`, 60_000);
        }
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${worker.tail()}`);
      }
      const secret = await secretOf(api.http, userId);
      for (const [i, path] of paths.entries()) {
        const events = distinctEvents(receiver.on(path));
        expect(events.map(({ event }) => [event.type, event.data.message.id])).toEqual([
          ['message.queued', ids[i]],
          ['message.sending', ids[i]],
          ['message.sent', ids[i]],
        ]);
        expect(events[0].id).toBe(queuedEvents[i]);
        // Signed by the worker process, verified with the secret the API process serves.
        expect(receiver.on(path).map((r) => verifiesRequest(secret, r))).toEqual([true, true, true]);
        await waitForLog(api.http, userId, ids[i], allIn('delivered', 3), 'three delivered events');
      }
    },
    TIMEOUT,
  );

  it(
    'delivers an event whose worker was killed (SIGKILL) while the receiver held its request open',
    async () => {
      const userId = newUserId('killed');
      const path = newPath('killed');
      receiver.reply = (request, attempt) =>
        request.path === path && attempt === 1 ? new Promise<ReceiverReply>((resolve) => held.push(() => resolve({ status: 200 }))) : { status: 200 };
      const a = spawnWorker();
      const accepted = (await api.http.post('/sender/send').set(bearer(userId)).send(sendBody({ webhook: { url: receiver.url(path), status: ['queued'] } })).expect(201)).body;
      try {
        await receiver.waitFor(() => receiver.on(path).length === 1, 'the held request', 60_000);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${a.tail()}`);
      }
      const eventId = header(receiver.on(path)[0], 'webhook-id');
      a.child.kill('SIGKILL');
      expect(await exitOf(a.child, 10_000)).toEqual({ code: null, signal: 'SIGKILL' });
      await receiver.waitFor(() => receiver.on(path)[0].clientGone, 'the killed worker hang up', 10_000);

      // Nothing was recorded by the dead worker: the event is still pending, its job still held.
      const [pending] = (await deliveriesOf(api.http, userId, { messageId: accepted.id })).deliveries;
      expect(pending).toMatchObject({ id: eventId, type: 'message.queued', state: 'pending', attempts: [] });
      expect(await webhookJobs(eventId)).toEqual(['active']);

      const b = spawnWorker();
      // The webhook queue's lease is fixed at 300 s (src/webhooks/webhook-queue.ts); rather than
      // wait five minutes, move the job's start back so that pg-boss's maintenance finds it expired
      // now and gives it back to the queue, as it would once the lease ran out.
      await api.db.query(
        `UPDATE pgboss.job SET started_on = started_on - interval '1 hour' WHERE name = 'webhook-delivery' AND data->>'eventId' = $1 AND state = 'active'`,
        [eventId],
      );
      try {
        await receiver.waitFor(() => receiver.withId(eventId).some((r) => r.answered === 200), 'the event again', 60_000);
      } catch (error) {
        throw new Error(`${(error as Error).message}\n${b.tail()}`);
      }
      const copies = receiver.withId(eventId);
      // At least once: the held copy (never answered) and the one that worker B delivered.
      expect(copies.length).toBeGreaterThanOrEqual(2);
      expect(copies[0].clientGone).toBe(true);
      expect(new Set(copies.map((r) => r.rawBody)).size).toBe(1);
      expect(verifiesRequest(await secretOf(api.http, userId), copies.at(-1)!)).toBe(true);
      const [delivered] = await waitForLog(api.http, userId, accepted.id, allIn('delivered', 1), 'the event delivered');
      expect(delivered.id).toBe(eventId);
      expect(delivered.attempts.at(-1)).toMatchObject({ statusCode: 200, error: null });
    },
    TIMEOUT,
  );
});

describe('retry delays of 0 seconds', () => {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  let t: TestApp;

  beforeAll(async () => {
    await receiver.start();
    const smtpPort = await sink.start();
    t = await bootTestApp(
      { ROLE: 'all', SMTP_URL: sink.url(smtpPort), DELIVERY_RETRY_DELAYS: '0', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_DELAYS: '0' },
      { isolatedDatabase: true },
    );
  }, TIMEOUT);

  afterAll(async () => {
    await t?.close();
    await receiver.stop();
    await sink.stop();
  }, TIMEOUT);

  it(
    'still retry: a deferred message is sent and a failed webhook attempt is delivered at once',
    async () => {
      const userId = newUserId('zero');
      const path = newPath('zero');
      sink.reply = (_mail, attempt) => (attempt === 1 ? { code: 451, message: '4.3.0 Later' } : 'accept');
      receiver.reply = (request, attempt) => (request.path === path && attempt === 1 ? { status: 500 } : { status: 200 });
      const { body } = await t.http.post('/sender/send').set(bearer(userId)).send(sendBody({ webhook: { url: receiver.url(path), status: ['sent'] } })).expect(201);
      const sent = await waitForStatus(t.http, userId, body.id, 'sent');
      expect(sent.statusHistory.map((e: { status: string }) => e.status)).toEqual(['queued', 'sending', 'deferred', 'sending', 'sent']);
      const [delivery] = await waitForLog(t.http, userId, body.id, allIn('delivered', 1), 'a delivered event');
      expect(delivery.attempts.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
    },
    TIMEOUT,
  );
});
