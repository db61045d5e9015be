// Events (docs/delivery-and-deliverability.md#webhooks): what each event carries, and which status changes webhook.status selects.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { waitForQueueSettled } from '../../support/queue-settled';
import { newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { distinctEvents } from '../../support/webhooks/signatures';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { allIn, deliveriesOf, ISO_UTC, waitForLog } from '../../support/webhooks/webhook-endpoints';

const MESSAGE_FIELDS = [
  'id',
  'to',
  'subject',
  'senderId',
  'status',
  'userId',
  'sentAt',
  'sender',
  'bulkSendingId',
  'contactId',
  'priority',
  'customPayload',
  'cc',
  'bcc',
  'replyTo',
  'scheduledAt',
  'nextAttemptAt',
  'recipients',
  'statusHistory',
].sort();

describe('webhook events (ROLE=all, private networks allowed)', () => {
  const { receiver, sink, t, send } = bootWebhookApp(TO_LOOPBACK);

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
        expect(message).toMatchObject({
          bulkSendingId: 'spring-campaign',
          contactId: 'contact-42',
          priority: 'high',
          customPayload: { orderId: 'A-1001', tenant: 'acme' },
        });
        for (const { id, event } of events) {
          // docs/delivery-and-deliverability.md#webhooks: the body names the event, as its webhook-id header does.
          expect(Object.keys(event).sort()).toEqual(['data', 'id', 'timestamp', 'type']);
          expect(event.id).toBe(id);
          expect(Object.keys(event.data).sort()).toEqual(['message', 'sequence']);
          expect(Object.keys(event.data.message).sort()).toEqual(MESSAGE_FIELDS);
          const n = event.data.sequence;
          const status = event.type.replace(/^message\./, '');
          // The recipients as they stood at the change: pending until the relay took the message.
          const recipients = message.recipients.map((r: { status: string; detail: string | null; at: string }) =>
            status === 'sent' ? r : { ...r, status: 'pending', detail: null, at: message.sentAt },
          );
          expect(event.data.message).toEqual({
            ...message,
            status,
            statusHistory: statusHistory.slice(0, n),
            recipients,
          });
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
            // docs/delivery-and-deliverability.md#webhooks: a message's own webhook is no endpoint's, and its delivery's id is its event's.
            eventId: id,
            endpointId: null,
            messageId: accepted.id,
            type: event.type,
            sequence: event.data.sequence,
            url: receiver.url(path),
            state: 'delivered',
            createdAt: event.timestamp,
            nextAttemptAt: null,
            attempts: [
              {
                attemptedAt: expect.stringMatching(ISO_UTC),
                statusCode: 200,
                durationMs: expect.any(Number),
                error: null,
              },
            ],
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
        // Every webhook job has run: no other event can still arrive.
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        const events = distinctEvents(receiver.on(path));
        expect(events.map(({ event }) => [event.type, event.data.sequence, event.data.message.status])).toEqual([
          ['message.sent', 3, 'sent'],
        ]);
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
        for (const [path, id] of [
          [emptyPath, empty.id],
          [absentPath, absent.id],
        ]) {
          await receiver.waitFor(
            () => receiver.on(path).filter((r) => r.answered === 200).length >= 3,
            `three events at ${path}`,
          );
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
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        expect(receiver.requests.filter((r) => r.rawBody.includes(accepted.id))).toEqual([]);
        expect(await deliveriesOf(t.http, userId, { messageId: accepted.id })).toMatchObject({
          deliveries: [],
          total: 0,
          messageId: accepted.id,
        });
        expect(await deliveriesOf(t.http, userId)).toMatchObject({
          deliveries: [],
          total: 0,
          totalPages: 0,
          hasNext: false,
          messageId: null,
        });
      },
      TIMEOUT,
    );

    it(
      'a 4xx SMTP reply then success delivers the deferred event and the second sending too',
      async () => {
        const userId = newUserId('deferred');
        const path = newPath('deferred');
        const subject = `Deferred ${randomUUID()}`;
        sink.reply = (mail, attempt) =>
          mail.subject === subject && attempt === 1 ? { code: 451, message: '4.3.0 Try again later' } : 'accept';
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
        // The retry's moment (DELIVERY_RETRY_DELAYS 1 s after the deferral) while the message still waits
        // for it when the event goes out; null once the retry began, as it has for the other events.
        const due = Date.parse(deferred.statusHistory[2].at) + 1000;
        // Which of the two came first is the worker's race; either way the value is one of them.
        expect(
          deferred.nextAttemptAt === null ? null : Math.abs(Date.parse(deferred.nextAttemptAt) - due) < 50,
        ).not.toBe(false);
        expect(events.filter((_, i) => i !== 2).map(({ event }) => event.data.message.nextAttemptAt)).toEqual([
          null,
          null,
          null,
          null,
        ]);
        expect(events[4].event.data.message.statusHistory).toEqual(final.statusHistory);
      },
      TIMEOUT,
    );
  });
});
