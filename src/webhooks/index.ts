// The Webhooks context's public face: the event catalogue and outbox, endpoints, posting.
// What other contexts may import (.dependency-cruiser.cjs); inside webhooks/, import files directly.
export { WebhookAttemptEntity } from './entities/webhook-attempt.entity';
export { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
export { WebhookEventEntity } from './entities/webhook-event.entity';
export { EventOutbox } from './events/event-outbox';
export { EventsModule } from './events/events.module';
export { IsWebhookUrl, ReachableWebhookUrlRule } from './webhook-url';
export { WebhooksModule } from './webhooks.module';
