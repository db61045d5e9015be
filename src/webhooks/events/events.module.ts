import { Global, Module } from '@nestjs/common';
import { EventOutbox } from './event-outbox';

/**
 * Events (docs/delivery-and-deliverability.md#webhooks): the catalogue and the outbox writer every change calls. Global, as the job
 * queue below it: messages, domains, suppressions and inbound mail all write through it.
 */
@Global()
@Module({ providers: [EventOutbox], exports: [EventOutbox] })
export class EventsModule {}
