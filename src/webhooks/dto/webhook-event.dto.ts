import { ApiProperty, ApiPropertyOptional, ApiSchema, OmitType } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageQuery } from '../../platform/paging';
import { TEST_EVENT_TYPE } from '../events/event-types';
import { SUBSCRIBABLE_EVENT_TYPES } from '../endpoints/event-type-names';
import { WEBHOOK_STATES } from '../webhook-state';

const LOGGED_TYPES = [...SUBSCRIBABLE_EVENT_TYPES, TEST_EVENT_TYPE];

export class ListWebhookEventsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the events of this message' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a message id (UUID)' })
  messageId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the deliveries to this endpoint' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a webhook endpoint id (UUID)' })
  endpointId?: string;

  @ApiPropertyOptional({ enum: LOGGED_TYPES, example: 'message.sent', description: 'Only events of this type' })
  @IsOptional()
  @IsIn(LOGGED_TYPES, { message: `must be one of: ${LOGGED_TYPES.join(', ')}` })
  type?: string;
}

export class WebhookAttemptResponse {
  @ApiProperty({ format: 'date-time' })
  attemptedAt!: string;

  @ApiProperty({ type: Number, nullable: true, description: "The receiver's HTTP status; null when none came" })
  statusCode!: number | null;

  @ApiProperty()
  durationMs!: number;

  @ApiProperty({ type: String, nullable: true, example: 'no answer within 10000 ms' })
  error!: string | null;
}

// The schema keeps the API's name (GET /user/webhook-deliveries): clients generate code from it.
@ApiSchema({ name: 'WebhookDeliveryResponse' })
export class WebhookEventResponse {
  @ApiProperty({ format: 'uuid', description: "The delivery's id (replay); a message's own webhook: also its event's" })
  id!: string;

  @ApiProperty({
    format: 'uuid',
    description: 'The event: the `webhook-id` header of every attempt, the same for every target',
  })
  eventId!: string;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: "The endpoint it goes to; null for a message's own webhook",
  })
  endpointId!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null for account events' })
  messageId!: string | null;

  @ApiProperty({ example: 'message.sent' })
  type!: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 3,
    description: "The message's status change this event reports, from 1; null for account events",
  })
  sequence!: number | null;

  @ApiProperty({ example: 'https://example.com/hooks/mailroom' })
  url!: string;

  @ApiProperty({ enum: WEBHOOK_STATES, description: 'gone: the receiver answered 410' })
  state!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: string | null;

  @ApiProperty({ type: [WebhookAttemptResponse], description: 'Oldest first' })
  attempts!: WebhookAttemptResponse[];
}

export class WebhookAttemptDetailsResponse extends WebhookAttemptResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '{"received":true}',
    description:
      "The first 1,024 bytes of the receiver's answer, decoded as UTF-8 (invalid bytes replaced); null when no answer came, or for an attempt logged before answers were kept",
  })
  responseBody!: string | null;
}

export class WebhookRequestResponse {
  @ApiProperty({
    example: '{"id":"01a1ffa8-9fc5-732e-a326-ec80b8d3887f","type":"message.sent","timestamp":"…","data":{…}}',
    description: 'The JSON body POSTed, exactly as sent (the same on every attempt)',
  })
  body!: string;
}

@ApiSchema({ name: 'WebhookDeliveryDetailsResponse' })
export class WebhookDeliveryDetailsResponse extends OmitType(WebhookEventResponse, ['attempts'] as const) {
  @ApiProperty({ type: WebhookRequestResponse })
  request!: WebhookRequestResponse;

  @ApiProperty({ type: [WebhookAttemptDetailsResponse], description: 'Oldest first' })
  attempts!: WebhookAttemptDetailsResponse[];
}

@ApiSchema({ name: 'WebhookDeliveryPageResponse' })
export class WebhookEventPageResponse {
  @ApiProperty({ type: [WebhookEventResponse] })
  deliveries!: WebhookEventResponse[];

  @ApiProperty() take!: number;
  @ApiProperty() page!: number;
  @ApiProperty() skip!: number;
  @ApiProperty() total!: number;
  @ApiProperty() totalPages!: number;
  @ApiProperty() hasNext!: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  messageId!: string | null;
}

export class WebhookSecretResponse {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Verifies the webhook-signature of your events',
  })
  secret!: string;
}
