// Endpoint signing secrets (docs/delivery-and-deliverability.md#webhooks): encrypted at rest as DKIM keys are, and rotations that
// overlap make one new secret, so that every secret a rotate-secret call answered signs. Each
// request is verified by the standardwebhooks and svix libraries at a real receiver.
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { createEndpoint } from '../../support/webhook-endpoints/endpoint-support';
import { BOTH, verdicts } from '../../support/webhook-endpoints/library-verification';

const CONCURRENT_ROTATIONS = 10;

describe('webhook endpoints: secrets at rest and concurrent rotations (docs/delivery-and-deliverability.md#webhooks)', () => {
  const { receiver, t } = bootWebhookApp(TO_LOOPBACK);

  /** Sends the endpoint a test event; the request the receiver got. */
  async function testEvent(userId: string, endpointId: string) {
    const { body } = await t.http.post(`/user/webhook-endpoints/${endpointId}/test`).set(bearer(userId)).expect(202);
    await receiver.waitFor(() => receiver.withId(body.eventId).some((r) => r.answered === 200), 'the test event');
    await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
    return receiver.withId(body.eventId)[0];
  }

  it(
    'stores no secret in plain text, and still shows, signs with and rotates it',
    async () => {
      const userId = newUserId('sealed-secret');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(newPath('sealed')));
      const rotated = await t.http
        .post(`/user/webhook-endpoints/${endpoint.id}/rotate-secret`)
        .set(bearer(userId))
        .expect(200);

      const [row] = await t.db.query(
        `SELECT secret, previous_secret, pg_typeof(secret)::text AS type FROM webhook_endpoints WHERE id = $1`,
        [endpoint.id],
      );
      expect(row.type).toBe('bytea');
      // Neither secret is in its row, as text or as the key bytes it stands for.
      for (const [stored, secret] of [
        [row.secret, rotated.body.secret],
        [row.previous_secret, endpoint.secret],
      ] as [Buffer, string][]) {
        expect(stored.includes(Buffer.from(secret))).toBe(false);
        expect(stored.includes(Buffer.from(secret.slice('whsec_'.length), 'base64'))).toBe(false);
      }

      const shown = await t.http.get(`/user/webhook-endpoints/${endpoint.id}/secret`).set(bearer(userId)).expect(200);
      expect(shown.body).toEqual({ secret: rotated.body.secret });
      const request = await testEvent(userId, endpoint.id);
      expect(verdicts(rotated.body.secret, request)).toEqual(BOTH);
      expect(verdicts(endpoint.secret, request)).toEqual(BOTH);
    },
    TIMEOUT,
  );

  it(
    `answers ${CONCURRENT_ROTATIONS} concurrent rotations with secrets that all sign, beside the secret before them`,
    async () => {
      const userId = newUserId('rotation-race');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(newPath('rotated')));

      const answers = await Promise.all(
        Array.from({ length: CONCURRENT_ROTATIONS }, () =>
          t.http.post(`/user/webhook-endpoints/${endpoint.id}/rotate-secret`).set(bearer(userId)),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(CONCURRENT_ROTATIONS).fill(200));
      const returned = [...new Set(answers.map((answer) => answer.body.secret as string))];

      const request = await testEvent(userId, endpoint.id);
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(returned.map((secret) => ({ secret, ...verdicts(secret, request) }))).toEqual(
        returned.map((secret) => ({ secret, ...BOTH })),
      );
      // The receiver's secret from before the rotations is the old one, still signing for 24 hours.
      expect(returned).not.toContain(endpoint.secret);
      expect(verdicts(endpoint.secret, request)).toEqual(BOTH);
      const shown = await t.http.get(`/user/webhook-endpoints/${endpoint.id}/secret`).set(bearer(userId)).expect(200);
      expect(returned).toContain(shown.body.secret);
    },
    TIMEOUT,
  );
});
