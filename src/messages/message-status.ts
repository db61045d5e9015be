/** The lifecycle of SPEC §5: queued → sending → sent, with deferred retries and failed as the other end. */
export const MESSAGE_STATUSES = ['queued', 'sending', 'deferred', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const MESSAGE_PRIORITIES = ['low', 'normal', 'high'] as const;
export type MessagePriority = (typeof MESSAGE_PRIORITIES)[number];
