import type { paths } from '../../generated/openapi';
import type { Schemas } from '../api/client';
import { answer } from './mock-api';

/** What GET `path` answers with 200, as the OpenAPI document types it: a fixture the API could not send fails the build. */
type Ok<P extends keyof paths> = paths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer Body } } } };
}
  ? Body
  : never;

/** GET `path` answers `body` from now on. */
export function answerGet<P extends keyof paths>(path: P, body: Ok<P>): void {
  answer(`GET ${path}`, body);
}

const AT = '2026-05-04T10:00:00.000Z';

/** Where a one-page list is (docs/api.md#routes), for `rows` rows of `take`. */
export function paging(rows: number, { page = 1, take = 10, total = rows } = {}) {
  const totalPages = Math.ceil(total / take);
  return { take, page, skip: (page - 1) * take, total, totalPages, hasNext: page < totalPages };
}

export function aMessage(overrides: Partial<Schemas['MessageResponse']> = {}): Schemas['MessageResponse'] {
  return {
    id: 'msg-1',
    to: ['ada@example.com'],
    subject: 'Your invoice',
    senderId: 'sender-1',
    status: 'sent',
    userId: 'user-1',
    sentAt: AT,
    sender: 'billing@example.org',
    bulkSendingId: null,
    contactId: null,
    priority: 'normal',
    customPayload: null,
    cc: null,
    bcc: null,
    replyTo: null,
    scheduledAt: null,
    nextAttemptAt: null,
    recipients: [
      {
        email: 'ada@example.com',
        type: 'to',
        status: 'sent',
        detail: '250 2.0.0 OK',
        at: AT,
        route: { host: 'mx.example.com', tls: true },
      },
    ],
    statusHistory: [{ status: 'sent', at: AT, detail: '250 2.0.0 OK' }],
    ...overrides,
  };
}

export function messagesPage(
  messages: Schemas['MessageResponse'][],
  at: Parameters<typeof paging>[1] = {},
): Ok<'/user/messages'> {
  return {
    ...paging(messages.length, at),
    messages,
    startDate: null,
    endDate: null,
    fromEmail: null,
    toEmail: null,
    statuses: null,
    bulkSending: null,
    q: null,
  };
}

export function anInboundMail(
  overrides: Partial<Schemas['InboundListItemResponse']> = {},
): Schemas['InboundListItemResponse'] {
  return {
    id: 'in-1',
    receivedAt: AT,
    from: 'Grace <grace@example.net>',
    to: ['desk@example.org'],
    cc: [],
    subject: 'Question about my order',
    messageId: '<abc@example.net>',
    envelope: { mailFrom: 'grace@example.net', rcptTo: ['desk@example.org'] },
    attachments: [],
    authentication: { spf: 'pass', dkim: 'pass', dmarc: 'pass' },
    replyToMessageId: null,
    ...overrides,
  };
}

export function inboundPage(
  inbound: Schemas['InboundListItemResponse'][],
  at: Parameters<typeof paging>[1] = {},
): Ok<'/user/inbound'> {
  return {
    ...paging(inbound.length, at),
    inbound,
    startDate: null,
    endDate: null,
    fromEmail: null,
    toEmail: null,
  };
}

export function aDelivery(
  overrides: Partial<Schemas['WebhookDeliveryResponse']> = {},
): Schemas['WebhookDeliveryResponse'] {
  return {
    id: 'dl-1',
    eventId: 'ev-1',
    endpointId: 'ep-1',
    messageId: 'msg-1',
    type: 'message.sent',
    sequence: 1,
    url: 'https://hooks.example.org/mailroom',
    state: 'delivered',
    createdAt: AT,
    nextAttemptAt: null,
    attempts: [{ attemptedAt: AT, statusCode: 200, durationMs: 42, error: null }],
    ...overrides,
  };
}

export function deliveriesPage(
  deliveries: Schemas['WebhookDeliveryResponse'][],
  at: Parameters<typeof paging>[1] = {},
): Ok<'/user/webhook-deliveries'> {
  return { ...paging(deliveries.length, { take: 20, ...at }), deliveries, messageId: null };
}

export function anEndpoint(
  overrides: Partial<Schemas['WebhookEndpointResponse']> = {},
): Schemas['WebhookEndpointResponse'] {
  return {
    id: 'ep-1',
    url: 'https://hooks.example.org/mailroom',
    events: ['message.sent'],
    description: 'Orders service',
    enabled: true,
    disabledReason: null,
    createdAt: AT,
    ...overrides,
  };
}
