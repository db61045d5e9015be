import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookEventsRepository } from './webhook-events.repository';
import { WebhookEventsService } from './webhook-events.service';
import { WebhookPoster } from './webhook-poster';
import { WebhookSigner } from './webhook-signer';
import { WebhooksController } from './webhooks.controller';

/** Webhooks: the secret and delivery-log endpoints, and the dispatcher (in worker processes). */
@Module({
  imports: [MessagesModule],
  controllers: [WebhooksController],
  providers: [WebhookSigner, WebhookPoster, WebhookEventsRepository, WebhookEventsService, WebhookDispatcher],
})
export class WebhooksModule {}
