import { Module } from '@nestjs/common';
import { WebhookQueue } from './webhook-queue';

/** The producer side, for the modules whose status changes create events (sender, delivery). */
@Module({ providers: [WebhookQueue], exports: [WebhookQueue] })
export class WebhookQueueModule {}
