// The apps the webhook specs run (docs/api.md#routes, docs/delivery-and-deliverability.md#webhooks): a real HTTP receiver on loopback
// (test/support/webhook-receiver.ts), a real SMTP sink and the real application.
import { randomUUID } from 'node:crypto';
import { sendBody } from '../factories';
import { SmtpSink } from '../smtp-sink';
import { bootTestApp, TestApp } from '../test-app';
import { bearer } from '../tokens';
import { ReceiverReply, WebhookReceiver } from '../webhook-receiver';

export const TIMEOUT = 120_000;
export const SIGNING_KEY = 'e2e-webhook-signing-key-0123456789-abcdefghijkl';

/**
 * Delivery to the receiver on 127.0.0.1, with retries short enough to wait for. The timeout is
 * far beyond an answer's time: a loaded machine (the receiver's event loop shared with the app)
 * has been seen to take past 500 ms for one, and a spurious retry breaks the suites' counts.
 */
export const TO_LOOPBACK = {
  DELIVERY_RETRY_DELAYS: '1',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_DELAYS: '1,1',
  WEBHOOK_TIMEOUT_MS: '5000',
  WEBHOOK_SIGNING_KEY: SIGNING_KEY,
};

export const newPath = (label: string) => `/hooks/${label}/${randomUUID()}`;

/** POST /sender/send's 201 answer (docs/api.md#sending): the Message as accepted, whose other fields the tests read. */
export type AcceptedMessage = { id: string; status: string } & Record<string, unknown>;

export interface WebhookApp {
  receiver: WebhookReceiver;
  sink: SmtpSink;
  /** The app; usable once the describe's beforeAll has run. */
  t: TestApp;
  /** POST /sender/send as `userId`, expecting 201; the accepted message. */
  send: (userId: string, overrides?: Record<string, unknown>) => Promise<AcceptedMessage>;
  /** Answers requests to `path` with `script`, and every other request with 200. */
  scriptFor: (path: string, script: (attempt: number) => ReceiverReply) => void;
}

/**
 * Starts a receiver and a sink and boots the app (ROLE=all, SMTP to the sink, then `env`) before
 * the calling describe's tests, and closes them after. The app has a database of its own, so that
 * no other test file's worker takes its jobs. Each test starts with a receiver and a sink that accept.
 */
export function bootWebhookApp(env: Record<string, string>): WebhookApp {
  const receiver = new WebhookReceiver();
  const sink = new SmtpSink();
  const t = {} as TestApp;

  beforeAll(async () => {
    await receiver.start();
    const smtpPort = await sink.start();
    Object.assign(
      t,
      await bootTestApp({ ROLE: 'all', SMTP_URL: sink.url(smtpPort), ...env }, { isolatedDatabase: true }),
    );
  }, TIMEOUT);

  afterEach(() => {
    receiver.reply = () => ({ status: 200 });
    sink.reply = () => 'accept';
  });

  afterAll(async () => {
    await t.close?.();
    await receiver.stop();
    await sink.stop();
  }, TIMEOUT);

  return {
    receiver,
    sink,
    t,
    send: async (userId, overrides = {}) =>
      (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201)).body,
    scriptFor: (path, script) => {
      receiver.reply = (request, attempt) => (request.path === path ? script(attempt) : { status: 200 });
    },
  };
}
