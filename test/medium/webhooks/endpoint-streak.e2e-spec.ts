// An endpoint's failing streak (docs/delivery-and-deliverability.md#webhooks) as its attempts
// record it: a failure extends it, a success ends it, and a success on an endpoint without a
// streak writes nothing, so that a busy endpoint's attempts do not queue on its one row.
import { WebhookEndpointsRepository } from '../../../src/webhooks/endpoints/webhook-endpoints.repository';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('an endpoint failing streak, recorded by its attempts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t?.close());

  it('is extended by a failure and ended by a success; a success without one leaves the row unwritten', async () => {
    const userId = newUserId('streak');
    const { body: endpoint } = await t.http
      .post('/user/webhook-endpoints')
      .set(bearer(userId))
      .send({ url: 'https://hooks.example.com/streak' })
      .expect(201);
    const endpoints = t.app.get(WebhookEndpointsRepository);
    // xmin: the transaction that wrote the row's current version.
    const row = async () =>
      (
        await t.db.query(
          `SELECT xmin::text AS version, failed_attempts AS "failed", failing_since AS "since", enabled FROM webhook_endpoints WHERE id = $1`,
          [endpoint.id],
        )
      )[0] as { version: string; failed: number; since: Date | null; enabled: boolean };

    const fresh = await row();
    await t.db.transaction((manager) => endpoints.recordSuccess(manager, endpoint.id));
    expect(await row()).toEqual(fresh);

    const failedAt = new Date('2026-11-29T10:00:00.000Z');
    const stillEnabled = await t.db.transaction((manager) =>
      endpoints.recordFailure(manager, endpoint.id, failedAt, 3600),
    );
    expect(stillEnabled).toBe(true);
    const failing = await row();
    expect(failing).toEqual({ version: expect.any(String), failed: 1, since: failedAt, enabled: true });
    expect(failing.version).not.toBe(fresh.version);

    await t.db.transaction((manager) => endpoints.recordSuccess(manager, endpoint.id));
    expect(await row()).toEqual({ version: expect.any(String), failed: 0, since: null, enabled: true });
  });
});
