import { ApiProperty, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { RecipientFateResponse, MessageResponse } from '../../messages';
import { MESSAGE_STATUSES, RECIPIENT_EVENT_STATUSES } from '../../messages';
import { TEST_EVENT_TYPE } from '../events/event-types';

// The bodies POSTed to endpoints (docs/delivery-and-deliverability.md#webhooks), for the OpenAPI document: no operation returns them.
// Domains and suppressions sit beside this room, so their schemas are named rather than imported.

abstract class EventEnvelope {
  @ApiProperty({ format: 'uuid', description: 'The event id: `webhook-id` of every target and attempt' })
  id!: string;

  @ApiProperty({ format: 'date-time', description: 'The moment of the change' })
  timestamp!: string;
}

class MessageEventData {
  @ApiProperty({ type: MessageResponse, description: 'The message as it stood at the change, with statusHistory' })
  message!: MessageResponse;

  @ApiProperty({ example: 3, description: "The message's status changes counted from 1" })
  sequence!: number;
}

@ApiSchema({ name: 'MessageEvent', description: 'message.<status>: a message entered that status' })
export class MessageEvent extends EventEnvelope {
  @ApiProperty({ enum: MESSAGE_STATUSES.map((status) => `message.${status}`), example: 'message.sent' })
  type!: string;

  @ApiProperty({ type: MessageEventData })
  data!: MessageEventData;
}

class RecipientEventData {
  @ApiProperty({ type: MessageResponse, description: 'The message as it stood at the change' })
  message!: MessageResponse;

  @ApiProperty({ type: RecipientFateResponse, description: 'The recipient, with its new fate' })
  recipient!: RecipientFateResponse;
}

@ApiSchema({ name: 'RecipientEvent', description: 'recipient.<fate>: one recipient got that fate' })
export class RecipientEvent extends EventEnvelope {
  @ApiProperty({ enum: RECIPIENT_EVENT_STATUSES.map((status) => `recipient.${status}`), example: 'recipient.bounced' })
  type!: string;

  @ApiProperty({ type: RecipientEventData })
  data!: RecipientEventData;
}

class DomainEventData {
  @ApiProperty({ allOf: [{ $ref: getSchemaPath('DomainResponse') }], description: 'As GET /domains/{id}' })
  domain!: object;
}

@ApiSchema({ name: 'DomainEvent', description: "A domain's status changed" })
export class DomainEvent extends EventEnvelope {
  @ApiProperty({ enum: ['domain.verified', 'domain.pending'] })
  type!: string;

  @ApiProperty({ type: DomainEventData })
  data!: DomainEventData;
}

class SuppressionEventData {
  @ApiProperty({ allOf: [{ $ref: getSchemaPath('SuppressionResponse') }], description: 'As in GET /user/suppressions' })
  suppression!: object;
}

@ApiSchema({
  name: 'SuppressionEvent',
  description: 'An address was put on or taken off the suppression list, for any reason',
})
export class SuppressionEvent extends EventEnvelope {
  @ApiProperty({ enum: ['suppression.created', 'suppression.deleted'] })
  type!: string;

  @ApiProperty({ type: SuppressionEventData })
  data!: SuppressionEventData;
}

class InboundEventData {
  @ApiProperty({ allOf: [{ $ref: getSchemaPath('InboundListItemResponse') }], description: 'As in GET /user/inbound' })
  inbound!: object;
}

@ApiSchema({ name: 'InboundReceivedEvent', description: 'An inbound mail was stored' })
export class InboundReceivedEvent extends EventEnvelope {
  @ApiProperty({ enum: ['inbound.received'] })
  type!: string;

  @ApiProperty({ type: InboundEventData })
  data!: InboundEventData;
}

class EndpointTestData {
  @ApiProperty({ format: 'uuid' })
  endpointId!: string;
}

@ApiSchema({ name: 'EndpointTestEvent', description: 'POST /user/webhook-endpoints/{id}/test' })
export class EndpointTestEvent extends EventEnvelope {
  @ApiProperty({ enum: [TEST_EVENT_TYPE] })
  type!: string;

  @ApiProperty({ type: EndpointTestData })
  data!: EndpointTestData;
}

export const EVENT_PAYLOAD_MODELS = [
  MessageEvent,
  RecipientEvent,
  DomainEvent,
  SuppressionEvent,
  InboundReceivedEvent,
  EndpointTestEvent,
];
