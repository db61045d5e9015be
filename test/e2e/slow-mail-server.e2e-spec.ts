// A mail server slower than a worker's stock allows: a claimed job can wait in the stock until
// its lease runs out, and another worker then takes it over. The first must not send it too.
import { deliveringApp } from '../support/delivering-app';
import { bootTestApp, TestApp } from '../support/test-app';
import { waitForStatus } from '../support/wait-for';
import { newUserId } from '../support/tokens';
import { batchOf, sendBatch } from '../support/batch/batch-support';

const LEASE_SECONDS = 3;
const REPLY_MS = 2000;
const MESSAGES = 8;

describe('deliveries through a slow mail server, by two workers', () => {
  // One slot each, with a stock of four: the stock's second job waits 4 s, past its 3 s lease.
  const env = {
    WORKER_CONCURRENCY: '1',
    DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS),
    RATE_LIMIT_PER_MINUTE: '100000',
  };
  const { t, sink } = deliveringApp(env);
  let second: TestApp;
  beforeAll(async () => {
    sink.reply = () => new Promise((resolve) => setTimeout(() => resolve('accept'), REPLY_MS));
    second = await bootTestApp({
      ...env,
      ROLE: 'worker',
      SMTP_URL: t.config.delivery.smtpUrl!,
      DATABASE_URL: t.config.databaseUrl!,
    });
  });
  afterAll(async () => {
    await second?.close();
  });

  it("sends each message once: a job whose lease ran out in one worker's stock is the other's alone", async () => {
    const userId = newUserId();
    const { body } = await sendBatch(t.http, userId, batchOf(MESSAGES)).expect(201);
    const ids: string[] = body.messages.map((m: { id: string }) => m.id);

    for (const id of ids) await waitForStatus(t.http, userId, id, 'sent', 90_000);

    expect(ids.map((id) => sink.acceptedFor(id).length)).toEqual(ids.map(() => 1));
  }, 120_000);
});
