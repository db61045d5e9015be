import { Module } from '@nestjs/common';
import { Clock } from '../platform/clock';
import { MessagesModule } from '../messages';
import { DeliverWebhookEventUseCase } from './deliver-webhook-event.use-case';
import { WebhookEndpointsController } from './endpoints/webhook-endpoints.controller';
import { EndpointSecretCipher } from './endpoints/endpoint-secret-cipher';
import { WebhookEndpointsRepository } from './endpoints/webhook-endpoints.repository';
import { WebhookEndpointsService } from './endpoints/webhook-endpoints.service';
import { WebhookPayloads } from './webhook-payloads';
import { WebhookEventsService } from './webhook-events.service';
import { WebhookPoster } from './webhook-poster';
import { WebhookSigner } from './webhook-signer';
import { WebhookRetention } from './webhook-retention';
import { ReachableWebhookUrlRule } from './webhook-url';
import { WebhookWorker } from './webhook.worker';
import { WebhooksController } from './webhooks.controller';

/**
 * Webhooks: the secret, endpoint (docs/delivery-and-deliverability.md#webhooks) and delivery-log routes, and the worker that posts events (in worker processes).
 * The events repository is EventsModule's (global), which also hands it to message retention.
 */
@Module({
  imports: [MessagesModule],
  controllers: [WebhooksController, WebhookEndpointsController],
  providers: [
    Clock,
    EndpointSecretCipher,
    WebhookEndpointsRepository,
    WebhookEndpointsService,
    WebhookPayloads,
    WebhookSigner,
    WebhookPoster,
    WebhookEventsService,
    DeliverWebhookEventUseCase,
    WebhookWorker,
    WebhookRetention,
    ReachableWebhookUrlRule,
  ],
})
export class WebhooksModule {}
