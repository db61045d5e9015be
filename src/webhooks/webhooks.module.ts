import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { DeliverWebhookEventUseCase } from './deliver-webhook-event.use-case';
import { WebhookEventsRepository } from './webhook-events.repository';
import { WebhookEventsService } from './webhook-events.service';
import { WebhookPoster } from './webhook-poster';
import { WebhookSigner } from './webhook-signer';
import { WebhookWorker } from './webhook.worker';
import { WebhooksController } from './webhooks.controller';

/** Webhooks: the secret and delivery-log endpoints, and the worker that posts events (in worker processes). */
@Module({
  imports: [MessagesModule],
  controllers: [WebhooksController],
  providers: [
    WebhookSigner,
    WebhookPoster,
    WebhookEventsRepository,
    WebhookEventsService,
    DeliverWebhookEventUseCase,
    WebhookWorker,
  ],
})
export class WebhooksModule {}
