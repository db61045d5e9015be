import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { PageQuery } from '../../common/paging';

export class ListWebhookEventsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the events of this message' })
  @IsOptional()
  @IsUUID('all', { message: 'must be a message id (UUID)' })
  messageId?: string;
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
  @ApiProperty({ format: 'uuid', description: 'The `webhook-id` header of every attempt' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  messageId!: string;

  @ApiProperty({ example: 'message.sent' })
  type!: string;

  @ApiProperty({ example: 3, description: "The message's status change this event reports, from 1" })
  sequence!: number;

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
