import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsOptional, IsString } from 'class-validator';
import { IsWebhookUrl } from '../../webhook-url';
import { IsOmittable, TextLength } from '../../../platform/validation/validators';
import { SUBSCRIBABLE_EVENT_TYPES } from '../event-type-names';

const URL_PROPERTY = {
  format: 'uri',
  example: 'https://hooks.your-app.example/mailroom',
  maxLength: 2048,
  description: 'Absolute http(s) URL of your receiver; private and loopback addresses are refused at every attempt',
};
const EVENTS_PROPERTY = {
  enum: SUBSCRIBABLE_EVENT_TYPES,
  isArray: true,
  example: ['message.bounced', 'recipient.failed', 'suppression.created'],
  description: 'Event types to receive; empty or absent: all of them',
};
const EVENTS_MESSAGE = `must list only these event types: ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`;
const DESCRIPTION_PROPERTY = { maxLength: 255, example: 'Bounces to the CRM' };

export class CreateWebhookEndpointDto {
  @ApiProperty(URL_PROPERTY)
  @IsWebhookUrl()
  url!: string;

  @ApiPropertyOptional(EVENTS_PROPERTY)
  @IsOmittable()
  @IsArray()
  @ArrayMaxSize(SUBSCRIBABLE_EVENT_TYPES.length)
  @IsIn(SUBSCRIBABLE_EVENT_TYPES, { each: true, message: EVENTS_MESSAGE })
  events?: string[];

  @ApiPropertyOptional(DESCRIPTION_PROPERTY)
  @IsOptional()
  @TextLength(0, 255)
  @IsString()
  description?: string;
}

// Every field of a creation, each optional; validated by the same rules. Only `description` may
// be null (it clears it): the other columns are NOT NULL, so their null is a 400.
export class UpdateWebhookEndpointDto extends PartialType(CreateWebhookEndpointDto, { skipNullProperties: false }) {
  @ApiPropertyOptional({ example: true, description: 'true clears `disabledReason`' })
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookEndpointResponse {
  @ApiProperty({ format: 'uuid', example: '7d4c3a4e-2f7b-4c8e-9a51-3f0f2b9d6c11' })
  id!: string;

  @ApiProperty({ format: 'uri', example: 'https://hooks.your-app.example/mailroom' })
  url!: string;

  @ApiProperty({ ...EVENTS_PROPERTY, description: 'Empty: all event types' })
  events!: string[];

  @ApiProperty({ type: String, nullable: true, example: 'Bounces to the CRM' })
  description!: string | null;

  @ApiProperty({ example: true })
  enabled!: boolean;

  @ApiProperty({
    type: String,
    enum: ['failing'],
    nullable: true,
    example: null,
    description: '`failing`: disabled by the service after WEBHOOK_DISABLE_AFTER_SECONDS of failed attempts',
  })
  disabledReason!: 'failing' | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;
}

export class CreatedWebhookEndpointResponse extends WebhookEndpointResponse {
  @ApiProperty({ example: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD', description: "This endpoint's signing secret" })
  secret!: string;
}

export class WebhookEndpointListResponse {
  @ApiProperty({ type: [WebhookEndpointResponse], description: 'Oldest first' })
  endpoints!: WebhookEndpointResponse[];
}

export class EndpointSecretResponse {
  @ApiProperty({ example: 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD' })
  secret!: string;
}

export class EndpointTestResponse {
  @ApiProperty({ format: 'uuid', description: 'The `webhook-id` of the test event' })
  eventId!: string;
}
