import { Global, Module } from '@nestjs/common';
import { EventFanOut, MessageEventStore } from '../../messages';
import { WebhookEventsRepository } from '../webhook-events.repository';
import { EventOutbox } from './event-outbox';
import { MESSAGE_FAN_OUT } from './fan-out.sql';

/**
 * Events (docs/delivery-and-deliverability.md#webhooks): the catalogue, the outbox writer every
 * change calls, and the messages context's ports, which this context implements (messages may not
 * import webhooks): the fan-out its lifecycle's statements include (EventFanOut), and what its
 * retention asks of the events of messages (MessageEventStore). Global, as the job queue below it:
 * messages, domains, suppressions and inbound mail all write through it.
 */
@Global()
@Module({
  providers: [
    EventOutbox,
    WebhookEventsRepository,
    { provide: EventFanOut, useValue: MESSAGE_FAN_OUT },
    { provide: MessageEventStore, useExisting: WebhookEventsRepository },
  ],
  exports: [EventOutbox, WebhookEventsRepository, EventFanOut, MessageEventStore],
})
export class EventsModule {}
