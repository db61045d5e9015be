import { Module } from '@nestjs/common';
import { MessagesModule } from '../messages/messages.module';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhookDeliveriesService } from './webhook-deliveries.service';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSender } from './webhook-sender';
import { WebhookSigner } from './webhook-signer';
import { WebhooksController } from './webhooks.controller';

/** Webhooks: the secret and delivery-log endpoints, and the dispatcher (in worker processes). */
@Module({
  imports: [MessagesModule],
  controllers: [WebhooksController],
  providers: [WebhookSigner, WebhookSender, WebhookDeliveriesRepository, WebhookDeliveriesService, WebhookDispatcher],
})
export class WebhooksModule {}
