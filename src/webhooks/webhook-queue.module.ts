import { Global, Module } from '@nestjs/common';
import { StatusChangeOutbox } from '../messages/lifecycle/status-change-outbox';
import { WebhookQueue } from './webhook-queue';

/**
 * The producer side: the queue of webhook events, which is also the message lifecycle's outbox.
 * Global because the lifecycle, a layer below webhooks, may not import this module.
 */
@Global()
@Module({
  providers: [
    WebhookQueue,
    // A factory rather than useExisting, so that the compiler checks that the queue fits the port.
    { provide: StatusChangeOutbox, inject: [WebhookQueue], useFactory: (queue: WebhookQueue): StatusChangeOutbox => queue },
  ],
  exports: [WebhookQueue, StatusChangeOutbox],
})
export class WebhookQueueModule {}
