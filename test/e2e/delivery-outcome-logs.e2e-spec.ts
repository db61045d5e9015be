// What an operator reads (issue 12, item 9): a real `node src/main.ts` (ROLE=all, production
// settings) writes its JSON log lines to stdout; these tests read them after real requests, real
// deliveries to the SMTP sink and real webhooks to the test receiver.
import request from 'supertest';
import { freePort } from '../../src/platform/free-port';
import { startWorkerProcess, WorkerProcess } from '../support/child-processes';
import { sendBody } from '../support/factories';
import { SmtpSink } from '../support/smtp-sink';
import { createMigratedDatabase, dropDatabase } from '../support/test-app';
import { bearer, newUserId } from '../support/tokens';
import { waitForStatus } from '../support/wait-for';
import { WebhookReceiver } from '../support/webhook-receiver';

const TIMEOUT = 120_000;
type LogLine = Record<string, any>;

const sink = new SmtpSink();
const receiver = new WebhookReceiver();
let service: WorkerProcess;
let databaseUrl: string;
let http: ReturnType<typeof request>;

beforeAll(async () => {
  const smtpUrl = sink.url(await sink.start());
  await receiver.start();
  databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
  const port = await freePort();
  service = await startWorkerProcess({
    ROLE: 'all',
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    SMTP_URL: smtpUrl,
    DELIVERY_RETRY_DELAYS: '600',
    WEBHOOK_RETRY_DELAYS: '1',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  });
  http = request(`http://127.0.0.1:${port}`);
  await waitForHealth();
  // The sink answers by subject, the receiver by path.
  sink.reply = (mail) => {
    if (mail.subject === 'Defer me') return { code: 451, message: '4.3.0 Try again later' };
    if (mail.subject === 'Fail me') return { code: 554, message: '5.7.1 Message rejected as spam' };
    return 'accept';
  };
  receiver.reply = (received) => ({
    status: received.path.startsWith('/flaky') ? 500 : received.path.startsWith('/gone') ? 410 : 200,
  });
}, TIMEOUT);

afterAll(async () => {
  try {
    await service?.stop();
    await sink.stop();
    await receiver.stop();
  } finally {
    if (databaseUrl) await dropDatabase(databaseUrl);
  }
}, TIMEOUT);

/** The JSON lines the process has written so far. */
function lines(): LogLine[] {
  return service
    .stdout()
    .split('\n')
    .filter((text) => text.startsWith('{'))
    .map((text) => JSON.parse(text));
}

async function lineWhere(predicate: (line: LogLine) => boolean, what: string, timeoutMs = 30_000): Promise<LogLine> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines().find(predicate);
    if (found) return found;
    if (Date.now() > deadline || service.exitedAt !== undefined)
      throw new Error(`No log line for ${what}\n${service.tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForHealth(): Promise<void> {
  for (const deadline = Date.now() + 60_000; ;) {
    const status = await http.get('/health').then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`/health never answered 200\n${service.tail()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function send(userId: string, overrides: Record<string, unknown> = {}): Promise<string> {
  return (await http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201)).body.id;
}

const outcomeOf = (context: string, id: string, outcome: string) => (line: LogLine) =>
  line.context === context && line.messageId === id && line.outcome === outcome;

describe('log lines (ROLE=all process, JSON on stdout)', () => {
  it(
    'logs one short line per request, with its user and without headers',
    async () => {
      const userId = newUserId('logs');
      const requestId = `logs-${userId}`;
      await http
        .post('/sender/send')
        .set(bearer(userId))
        .set('X-Request-Id', requestId)
        .set('Cookie', 'session=secret-cookie')
        .send(sendBody())
        .expect(201);
      await http.get('/user/messages').set('X-Request-Id', `${requestId}-anonymous`).expect(401);

      const sent = await lineWhere((line) => line.req?.id === requestId && line.res !== undefined, 'the send');
      expect(sent).toEqual({
        level: 30,
        time: expect.any(Number),
        pid: service.child.pid,
        hostname: expect.any(String),
        req: { id: requestId, method: 'POST', url: '/sender/send' },
        res: { statusCode: 201 },
        responseTime: expect.any(Number),
        userId,
        // Where the request came from, as TRUST_PROXY rules (unset here: the TCP peer).
        clientAddress: '127.0.0.1',
        msg: 'request completed',
      });
      const anonymous = await lineWhere(
        (line) => line.req?.id === `${requestId}-anonymous` && line.res !== undefined,
        'the 401',
      );
      expect(anonymous.res).toEqual({ statusCode: 401 });
      expect(anonymous).not.toHaveProperty('userId');
      for (const line of [sent, anonymous])
        expect(JSON.stringify(line)).not.toMatch(/headers|authorization|bearer|secret-cookie/i);
    },
    TIMEOUT,
  );

  it(
    'logs each delivery outcome with the message, user, attempt and the SMTP reply',
    async () => {
      const userId = newUserId('logs');
      const [sentId, deferredId, failedId] = [
        await send(userId),
        await send(userId, { subject: 'Defer me' }),
        await send(userId, { subject: 'Fail me' }),
      ];

      const sent = await lineWhere(outcomeOf('Delivery', sentId, 'sent'), 'the sent message');
      expect(sent).toMatchObject({
        level: 30,
        messageId: sentId,
        userId,
        attempt: 1,
        detail: expect.stringMatching(/^250 2\.0\.0 Ok: queued as \d+ \(relay 127\.0\.0\.1:\d+\)$/),
      });
      // From the 250 to its commit: positive, and within the test's patience.
      expect(sent.recordedAfterMs).toBeGreaterThan(0);
      expect(sent.recordedAfterMs).toBeLessThan(30_000);
      expect(sent.msg).toBe(`Delivery sent (attempt 1): ${sent.detail}`);

      const deferred = await lineWhere(outcomeOf('Delivery', deferredId, 'deferred'), 'the deferred message');
      expect(deferred).toMatchObject({
        level: 30,
        userId,
        attempt: 1,
        detail: expect.stringContaining('451 4.3.0 Try again later'),
      });
      // DELIVERY_RETRY_DELAYS=600: the next attempt is ten minutes after the line, the moment the message shows.
      expect(Date.parse(deferred.nextAttemptAt) - deferred.time).toBeGreaterThanOrEqual(599_000);
      expect(Date.parse(deferred.nextAttemptAt) - deferred.time).toBeLessThanOrEqual(601_000);
      const { body: shown } = await http.get(`/user/messages/${deferredId}`).set(bearer(userId)).expect(200);
      expect(shown.nextAttemptAt).toBe(deferred.nextAttemptAt);
      expect(deferred.msg).toBe(
        `Delivery deferred (attempt 1): ${deferred.detail}; next attempt at ${deferred.nextAttemptAt}`,
      );

      const failed = await lineWhere(outcomeOf('Delivery', failedId, 'failed'), 'the failed message');
      expect(failed).toMatchObject({
        level: 40,
        userId,
        attempt: 1,
        detail: expect.stringContaining('554 5.7.1 Message rejected as spam'),
      });
      expect(failed).not.toHaveProperty('nextAttemptAt');

      // The lines say what the status history says.
      for (const [id, line, status] of [
        [sentId, sent, 'sent'],
        [deferredId, deferred, 'deferred'],
        [failedId, failed, 'failed'],
      ] as const) {
        const message = await waitForStatus(http, userId, id, status);
        expect(message.statusHistory.at(-1).detail).toBe(line.detail);
      }
    },
    TIMEOUT,
  );

  it(
    'logs each webhook attempt: delivered, retrying with its next attempt, gone, and failed when attempts run out',
    async () => {
      const userId = newUserId('logs');
      const sentId = await send(userId, { webhook: { url: receiver.url('/ok'), status: ['sent'] } });
      const deferredId = await send(userId, {
        subject: 'Defer me',
        webhook: { url: receiver.url('/flaky?token=receiver-secret'), status: ['deferred'] },
      });
      const failedId = await send(userId, {
        subject: 'Fail me',
        webhook: { url: receiver.url('/gone'), status: ['failed'] },
      });

      const delivered = await lineWhere(outcomeOf('Webhooks', sentId, 'delivered'), 'the delivered webhook');
      expect(delivered).toMatchObject({
        level: 30,
        userId,
        type: 'message.sent',
        attempt: 1,
        statusCode: 200,
        target: receiver.url('/ok'),
      });
      expect(receiver.on('/ok').map((r) => r.headers['webhook-id'])).toEqual([delivered.eventId]);
      expect(delivered.msg).toBe('Webhook delivered (attempt 1): HTTP 200');

      const retrying = await lineWhere(outcomeOf('Webhooks', deferredId, 'retrying'), 'the webhook to retry');
      expect(retrying).toMatchObject({
        level: 30,
        userId,
        type: 'message.deferred',
        attempt: 1,
        statusCode: 500,
        target: receiver.url('/flaky'),
      });
      const exhausted = await lineWhere(outcomeOf('Webhooks', deferredId, 'failed'), 'the webhook out of attempts');
      // WEBHOOK_RETRY_DELAYS=1: the next attempt is due a second after the receiver's answer (so
      // after its first post arrived), it is logged once decided, and the second post came no earlier.
      const nextAttemptAt = Date.parse(retrying.nextAttemptAt);
      const [firstPost, secondPost] = receiver.on('/flaky?token=receiver-secret').map((r) => r.receivedAt);
      expect(nextAttemptAt).toBeGreaterThanOrEqual(firstPost + 1_000);
      expect(nextAttemptAt - retrying.time).toBeLessThanOrEqual(1_000);
      expect(secondPost).toBeGreaterThanOrEqual(nextAttemptAt);
      expect(exhausted).toMatchObject({ level: 40, eventId: retrying.eventId, attempt: 2, statusCode: 500 });
      expect(exhausted).not.toHaveProperty('nextAttemptAt');
      for (const line of [retrying, exhausted]) expect(JSON.stringify(line)).not.toContain('receiver-secret');

      const gone = await lineWhere(outcomeOf('Webhooks', failedId, 'gone'), 'the webhook answered 410');
      expect(gone).toMatchObject({
        level: 40,
        userId,
        type: 'message.failed',
        attempt: 1,
        statusCode: 410,
        target: receiver.url('/gone'),
      });
      expect(gone.msg).toBe('Webhook gone (attempt 1): HTTP 410; the receiver asked for no more');
    },
    TIMEOUT,
  );
});
