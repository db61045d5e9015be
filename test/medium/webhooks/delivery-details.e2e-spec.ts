// One webhook delivery in detail (GET /user/webhook-deliveries/{id}): the body it POSTs, exactly
// as the receiver got it, and the first 1,024 bytes of each answer as UTF-8 (invalid bytes
// replaced), at that size and one past; another user's delivery or a malformed id: 404.
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { createEndpoint } from '../../support/webhook-endpoints/endpoint-support';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus, waitWhileChanging } from '../../support/wait-for';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { deliveriesOf, waitForLog } from '../../support/webhooks/webhook-endpoints';

const KEPT = 1024;

describe('GET /user/webhook-deliveries/{id}', () => {
  const { receiver, t, send, scriptFor } = bootWebhookApp(TO_LOOPBACK);

  const details = (userId: string, id: string) => t.http.get(`/user/webhook-deliveries/${id}`).set(bearer(userId));

  it(
    'shows the body posted and the first 1,024 bytes of each answer, a character cut at the end or invalid as U+FFFD',
    async () => {
      const userId = newUserId('delivery-details');
      const path = newPath('details');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(path));
      // 1,022 bytes of 'a', an invalid byte and a NUL, then 'é' (2 bytes) across the 1,024th byte.
      const first = Buffer.concat([Buffer.alloc(1020, 'a'), Buffer.from([0xff, 0x00]), Buffer.from('aéafter')]);
      const exact = Buffer.alloc(KEPT, 'b');
      scriptFor(path, (attempt) => (attempt === 1 ? { status: 500, body: first } : { status: 200, body: exact }));
      const { body: test } = await t.http
        .post(`/user/webhook-endpoints/${endpoint.id}/test`)
        .set(bearer(userId))
        .expect(202);
      await receiver.waitFor(() => receiver.withId(test.eventId).some((r) => r.answered === 200), 'the retry answered');
      const { deliveries } = await deliveriesOf(t.http, userId, { endpointId: endpoint.id });
      const [listed] = deliveries;
      const delivered = await waitForDelivered(userId, listed.id);

      const { body } = await details(userId, listed.id).expect(200);
      expect(body).toEqual({
        ...delivered,
        request: { body: receiver.withId(test.eventId)[0].rawBody },
        attempts: [
          { ...delivered.attempts[0], responseBody: 'a'.repeat(1020) + '\uFFFD\uFFFDa\uFFFD' },
          { ...delivered.attempts[1], responseBody: 'b'.repeat(KEPT) },
        ],
      });
      expect(receiver.withId(test.eventId).map((r) => r.rawBody)).toEqual([body.request.body, body.request.body]);
      // The list stays as it was: no bodies in it.
      expect(listed.request).toBeUndefined();
    },
    TIMEOUT,
  );

  it(
    "names a message's delivery's message, and shows nobody else's delivery",
    async () => {
      const userId = newUserId('delivery-details-own');
      const path = newPath('own');
      const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
      await waitForStatus(t.http, userId, accepted.id, 'sent');
      const [delivery] = await waitForLog(
        t.http,
        userId,
        accepted.id,
        (log) => log.length === 1 && log[0].state === 'delivered',
        'its sent event delivered',
      );

      const { body } = await details(userId, delivery.id).expect(200);
      expect(body.messageId).toBe(accepted.id);
      expect(body.request.body).toBe(receiver.on(path)[0].rawBody);
      expect(JSON.parse(body.request.body).data.message.id).toBe(accepted.id);
      expect(body.attempts).toEqual([expect.objectContaining({ statusCode: 200, responseBody: '' })]);

      const stranger = await details(newUserId('stranger'), delivery.id).expect(404);
      expect(stranger.body).toMatchObject({ status: 404, detail: expect.stringContaining(delivery.id) });
      for (const id of ['nope', `${delivery.id}x`, '00000000-0000-0000-0000-000000000000'])
        expect((await details(userId, id).expect(404)).body).toMatchObject({ status: 404 });
    },
    TIMEOUT,
  );

  /**
   * The list item once delivered (its two attempts logged), waited for while it or the webhook
   * queue's unfinished jobs change: a busy machine's slow worker is progress, a stuck one is not.
   */
  async function waitForDelivered(userId: string, id: string) {
    const { delivery } = await waitWhileChanging(
      async () => ({
        delivery: (await deliveriesOf(t.http, userId, { take: 100 })).deliveries.find(
          (d: { id: string }) => d.id === id,
        ),
        jobs: await t.db.query(
          `SELECT id, state FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active') ORDER BY id`,
          [WEBHOOK_QUEUE],
        ),
      }),
      (seen) => seen.delivery?.state === 'delivered',
      `delivery ${id} delivered`,
    );
    return delivery;
  }
});
