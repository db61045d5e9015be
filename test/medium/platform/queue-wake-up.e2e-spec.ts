// Jobs wake this process's loops when the transaction that inserted them commits (wakeAfterCommit):
// not before, not after a rollback, not at a savepoint's release, and at once outside a transaction.
// A send through the API wakes the delivery loop this way, with no call of its own.
import { DeliveryQueue } from '../../../src/platform/queue/delivery-queue';
import { WebhookQueue } from '../../../src/platform/queue/webhook-queue';
import { sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('waking the loops when jobs commit', () => {
  let t: TestApp;
  let deliveries: DeliveryQueue;
  let wakes: { delivery: number; webhook: number };
  const stops: (() => void)[] = [];

  beforeAll(async () => {
    // ROLE=api: no loop of this process takes the jobs; the listeners below stand in for them.
    t = await bootTestApp({ ROLE: 'api' }, { isolatedDatabase: true });
    deliveries = t.app.get(DeliveryQueue);
    stops.push(
      deliveries.onWork(() => wakes.delivery++),
      t.app.get(WebhookQueue).onWork(() => wakes.webhook++),
    );
  });
  beforeEach(() => (wakes = { delivery: 0, webhook: 0 }));
  afterAll(async () => {
    stops.forEach((stop) => stop());
    await t?.close();
  });

  const job = () => ({
    job: { messageId: '00000000-0000-7000-8000-000000000000', attempt: 1 },
    priority: 'normal' as const,
  });

  it('wakes once the transaction commits, not when the job is inserted', async () => {
    await t.db.transaction(async (manager) => {
      await deliveries.enqueue(manager, [job()]);
      expect(wakes.delivery).toBe(0);
    });
    expect(wakes).toEqual({ delivery: 1, webhook: 0 });
  });

  it('does not wake when the transaction rolls back', async () => {
    await expect(
      t.db.transaction(async (manager) => {
        await deliveries.enqueue(manager, [job()]);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(wakes.delivery).toBe(0);
  });

  it('waits for the outer commit when the jobs were inserted under a savepoint', async () => {
    await t.db.transaction(async (outer) => {
      await outer.transaction((inner) => deliveries.enqueue(inner, [job()]));
      expect(wakes.delivery).toBe(0);
    });
    expect(wakes.delivery).toBe(1);
  });

  it('wakes at once on a connection outside a transaction, and not for an empty insert', async () => {
    const runner = t.db.createQueryRunner();
    try {
      await deliveries.enqueue(runner.manager, []);
      expect(wakes.delivery).toBe(0);
      await deliveries.enqueue(runner.manager, [job()]);
      expect(wakes.delivery).toBe(1);
    } finally {
      await runner.release();
    }
  });

  it('wakes the delivery loop, and the webhook loop when the send has a webhook, after a send through the API', async () => {
    await t.http.post('/sender/send').set(bearer(newUserId())).send(sendBody()).expect(201);
    expect(wakes).toEqual({ delivery: 1, webhook: 0 });
    await t.http
      .post('/sender/send')
      .set(bearer(newUserId()))
      .send(sendBody({ webhook: { url: 'https://hooks.example.com/mailroom' } }))
      .expect(201);
    expect(wakes).toEqual({ delivery: 2, webhook: 1 });
  });
});
