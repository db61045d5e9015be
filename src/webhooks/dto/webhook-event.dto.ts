import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageQuery } from '../../common/paging';
import { TEST_EVENT_TYPE } from '../../events/event-types';
import { SUBSCRIBABLE_EVENT_TYPES } from '../endpoints/event-type-names';

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

  @ApiProperty({ enum: ['pending', 'delivered', 'failed', 'gone'], description: 'gone: the receiver answered 410' })
  state!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  nextAttemptAt!: string | null;

  @ApiProperty({ type: [WebhookAttemptResponse], description: 'Oldest first' })
  attempts!: WebhookAttemptResponse[];
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
