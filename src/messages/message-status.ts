/**
 * The lifecycle of docs/delivery-and-deliverability.md#statuses: (scheduled →) queued → sending → sent, with deferred retries and failed
 * as the other end; canceled before the sending; suppressed when every recipient is on the owner's
 * suppression list at delivery time; after the relay's acceptance, bounced and complained on the
 * reports that come back (docs/delivery-and-deliverability.md).
 */
export const MESSAGE_STATUSES = [
  'scheduled',
  'queued',
  'sending',
  'deferred',
  'sent',
  'failed',
  'canceled',
  'suppressed',
  'bounced',
  'complained',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_PRIORITIES = ['low', 'normal', 'high'] as const;
export type MessagePriority = (typeof MESSAGE_PRIORITIES)[number];
