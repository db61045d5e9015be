/** Where a webhook event's posting stands (docs/delivery-and-deliverability.md#webhooks); gone: the receiver answered 410. */
export const WEBHOOK_STATES = ['pending', 'delivered', 'failed', 'gone'] as const;
export type WebhookState = (typeof WEBHOOK_STATES)[number];
