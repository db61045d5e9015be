// A mail server slower than the worker's stock allows: claimed jobs must not wait in the stock
// until their lease runs out, or another fetch takes them over while they are still to be sent,
// and the message goes out twice.
import { deliveringApp } from './support/delivering-app';
import { waitForStatus } from './support/wait-for';
import { newUserId } from './support/tokens';
import { batchOf, sendBatch } from './batch/batch-support';

const LEASE_SECONDS = 3;
const REPLY_MS = 2000;
const MESSAGES = 10;

describe('deliveries through a slow mail server', () => {
  // Two slots with their stock of four: the stocked jobs of the first fetch would wait 2 and 4 s,
  // past the stock's age limit (a sixth of the lease: 500 ms), the last beyond the lease itself.
  const { t, sink } = deliveringApp({ WORKER_CONCURRENCY: '2', DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS), RATE_LIMIT_PER_MINUTE: '100000' });
  beforeAll(() => {
    sink.reply = () => new Promise((resolve) => setTimeout(() => resolve('accept'), REPLY_MS));
  });

  it('sends each message once, taking back after their lease the jobs that waited too long', async () => {
    const userId = newUserId();
    const { body } = await sendBatch(t.http, userId, batchOf(MESSAGES)).expect(201);
    const ids: string[] = body.messages.map((m: { id: string }) => m.id);

    const histories = [];
    for (const id of ids) histories.push((await waitForStatus(t.http, userId, id, 'sent', 90_000)).statusHistory.map((h: { status: string }) => h.status));

    expect(ids.map((id) => sink.acceptedFor(id).length)).toEqual(ids.map(() => 1));
    // Some job was left to its lease and claimed again (sending twice) rather than sent late.
    expect(histories).toContainEqual(['queued', 'sending', 'sending', 'sent']);
  }, 120_000);
});
