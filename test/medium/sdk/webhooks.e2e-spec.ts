// verifyWebhook (packages/sdk) on the events the real app posts to a real receiver on loopback:
// an endpoint's events, a message's own webhook, both signatures of a secret rotation, each
// checked by `standardwebhooks` too; and the delivery log read, and replayed, through the SDK.
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, type WebhookDelivery, WebhookVerificationError } from '../../../packages/sdk/src';
import { baseUrlOf, sdkAs, thrown } from '../../support/sdk';
import { newUserId } from '../../support/tokens';
import type { ReceivedRequest } from '../../support/webhook-receiver';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

const message = { sender: 'billing@example.com', to: ['ada@example.com'], subject: 'Invoice', text: 'Hello Ada' };
const libraryHeaders = (request: ReceivedRequest): Record<string, string> => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

describe('the SDK: webhooks the app posts (ROLE=all, private networks allowed)', () => {
  const { receiver, t } = bootWebhookApp(TO_LOOPBACK);
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await baseUrlOf(t);
  }, TIMEOUT);

  const answered = (path: string) => receiver.on(path).filter((request) => request.answered === 200);

  it(
    "verifies an endpoint's events with its secret, as standardwebhooks does, and nothing changed",
    async () => {
      const mailroom = sdkAs(baseUrl, newUserId('endpoint'));
      const path = newPath('sdk-endpoint');
      const endpoint = await mailroom.webhookEndpoints.create({ url: receiver.url(path) });
      const sent = await mailroom.emails.send(message);
      await receiver.waitFor(() => answered(path).some((r) => r.rawBody.includes('"message.sent"')), 'message.sent');

      const requests = answered(path);
      expect(requests.length).toBeGreaterThanOrEqual(3);
      for (const request of requests) {
        const event = await verifyWebhook(request.rawBody, request.headers, endpoint.secret);
        expect(event.id).toBe(request.headers['webhook-id']);
        expect(new Webhook(endpoint.secret).verify(request.rawBody, libraryHeaders(request))).toEqual(event);
        await expect(verifyWebhook(`${request.rawBody} `, request.headers, endpoint.secret)).rejects.toThrow(
          WebhookVerificationError,
        );
      }
      const events = await Promise.all(requests.map((r) => verifyWebhook(r.rawBody, r.headers, endpoint.secret)));
      expect(events.map((event) => event.type)).toEqual(
        expect.arrayContaining(['message.queued', 'message.sending', 'message.sent']),
      );
      const sentEvent = events.find((event) => event.type === 'message.sent');
      expect(sentEvent?.type === 'message.sent' && sentEvent.data.message.id).toBe(sent.id);
      const other = await mailroom.webhookDeliveries.accountSecret();
      await expect(verifyWebhook(requests[0].rawBody, requests[0].headers, other)).rejects.toThrow(
        /No webhook-signature/,
      );
    },
    TIMEOUT,
  );

  it(
    'verifies with the old secret and the new one while a rotation signs with both',
    async () => {
      const mailroom = sdkAs(baseUrl, newUserId('rotation'));
      const path = newPath('sdk-rotation');
      const endpoint = await mailroom.webhookEndpoints.create({ url: receiver.url(path) });
      const rotated = await mailroom.webhookEndpoints.rotateSecret(endpoint.id);
      const eventId = await mailroom.webhookEndpoints.test(endpoint.id);
      await receiver.waitFor(() => receiver.withId(eventId).some((r) => r.answered === 200), 'endpoint.test');

      const [request] = receiver.withId(eventId);
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [endpoint.secret, rotated]) {
        expect(await verifyWebhook(request.rawBody, request.headers, secret)).toMatchObject({
          id: eventId,
          type: 'endpoint.test',
          data: { endpointId: endpoint.id },
        });
        expect(() => new Webhook(secret).verify(request.rawBody, libraryHeaders(request))).not.toThrow();
      }
      // Past the tolerance, the same request is refused (a replay of a captured one).
      const later = (Number(request.headers['webhook-timestamp']) + 301) * 1000;
      await expect(verifyWebhook(request.rawBody, request.headers, rotated, { now: later })).rejects.toThrow(
        /tolerance/,
      );
    },
    TIMEOUT,
  );

  it(
    "verifies a message's own webhook with the account secret, and lists, reads and replays its deliveries",
    async () => {
      const mailroom = sdkAs(baseUrl, newUserId('own'));
      const path = newPath('sdk-own');
      const sent = await mailroom.emails.send({ ...message, webhook: { url: receiver.url(path) } });
      await receiver.waitFor(() => answered(path).some((r) => r.rawBody.includes('"message.sent"')), 'message.sent');
      const secret = await mailroom.webhookDeliveries.accountSecret();
      for (const request of answered(path)) await verifyWebhook(request.rawBody, request.headers, secret);

      const deliveries: WebhookDelivery[] = [];
      for await (const delivery of mailroom.webhookDeliveries.listAll({ messageId: sent.id, take: 1 }))
        deliveries.push(delivery);
      expect(deliveries.length).toBe(answered(path).length);
      expect(deliveries.every((delivery) => delivery.endpointId === null && delivery.messageId === sent.id)).toBe(true);
      const details = await mailroom.webhookDeliveries.get(deliveries[0].id);
      expect(details).toMatchObject({ id: deliveries[0].id, eventId: deliveries[0].eventId });
      const before = receiver.withId(deliveries[0].eventId).length;
      await mailroom.webhookDeliveries.replay(deliveries[0].id);
      await receiver.waitFor(() => receiver.withId(deliveries[0].eventId).length > before, 'the replay');
      expect(await thrown(mailroom.webhookDeliveries.get(sent.id))).toMatchObject({ status: 404 });
    },
    TIMEOUT,
  );
});
