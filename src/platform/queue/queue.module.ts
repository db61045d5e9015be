import { Global, Module } from '@nestjs/common';
import { DeliveryQueue } from './delivery-queue';
import { JobQueue } from './job-queue';
import { MailFirst } from './mail-first';
import { WebhookQueue } from './webhook-queue';

/**
 * Global, so that Nest starts it first and stops it last: each queue exists before any loop
 * fetches from it, and outlives the loops' drain.
 */
@Global()
@Module({
  providers: [JobQueue, DeliveryQueue, WebhookQueue, MailFirst],
  exports: [JobQueue, DeliveryQueue, WebhookQueue, MailFirst],
})
export class QueueModule {}
