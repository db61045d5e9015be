import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize, ArrayNotEmpty, IsArray, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, Validate, ValidateNested,
} from 'class-validator';
import { HasNoLineBreaks, IsEmailAddress, IsNotBlank, IsStringRecord, MaxUtf8Bytes, TextLength } from '../../common/validation/validators';
import { addressKey } from '../../messages/addresses';
import { MESSAGE_PRIORITIES } from '../../messages/message-status';
import type { MessagePriority } from '../../messages/message-status';
import { InlineAttachmentDto } from './inline-attachment.dto';
import { MaxRecipientsRule } from './max-recipients.rule';
import { ScheduledAtRule } from './scheduled-at.rule';
import { SCHEDULED_AT_EXAMPLE } from './send-message.examples';
import { WebhookSettingDto } from './webhook-setting.dto';

const MAX_HTML_BYTES = 5 * 1024 * 1024;

/** Drops repeated recipients, compared case-insensitively, keeping the first spelling. */
function distinctAddresses({ value }: { value: unknown }): unknown {
  if (!Array.isArray(value)) return value;
  const seen = new Set<string>();
  return value.filter((v) => typeof v !== 'string' || (!seen.has(addressKey(v)) && seen.add(addressKey(v))));
}

/** `POST /sender/send` body (seed §4.2, SPEC §4). Unknown fields are refused. */
export class SendMessageDto {
  @ApiProperty({ example: 'Your invoice', minLength: 1, maxLength: 998 })
  @IsString() @TextLength(1, 998) @HasNoLineBreaks() @IsNotBlank()
  subject!: string;

  @ApiProperty({ example: '<p>Hello Ada, your invoice is attached.</p>', minLength: 1, description: 'HTML body, at most 5 MiB' })
  @IsString() @IsNotEmpty({ message: 'must not be empty' }) @MaxUtf8Bytes(MAX_HTML_BYTES)
  html!: string;

  @ApiProperty({ type: 'array', items: { type: 'string', format: 'email' }, minItems: 1, example: ['ada@example.com'], description: 'Recipients (duplicates are dropped, then at most MAX_RECIPIENTS)' })
  @Transform(distinctAddresses) @IsArray() @ArrayNotEmpty() @Validate(MaxRecipientsRule)
  @IsEmailAddress({ each: true, message: 'must contain only email addresses (name@example.com)' })
  to!: string[];

  @ApiProperty({ format: 'email', example: 'billing@example.com', description: 'The From address' })
  @IsEmailAddress()
  sender!: string;

  @ApiPropertyOptional({ type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 20, description: 'Ids of attachments you stored with POST /attachments' })
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsUUID('all', { each: true, message: 'must contain only attachment ids (UUIDs)' })
  attachmentIds?: string[];

  @ApiPropertyOptional({ type: [InlineAttachmentDto], maxItems: 20, description: 'Files sent inline; with the stored ones at most MAX_ATTACHMENT_BYTES in all' })
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsObject({ each: true, message: 'must contain only {fileName, content} objects' })
  @ValidateNested({ each: true }) @Type(() => InlineAttachmentDto)
  attachments?: InlineAttachmentDto[];

  @ApiPropertyOptional({ example: 'march-newsletter', minLength: 1, maxLength: 255 })
  @IsOptional() @IsString() @TextLength(1, 255)
  bulkSendingId?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string', maxLength: 1000 }, maxProperties: 50, example: { orderId: '1234' }, description: 'At most 50 keys of 1-100 characters; values strings of at most 1,000' })
  // The parsed JSON as sent: class-transformer would otherwise rebuild it and could lose keys.
  @IsOptional() @Transform(({ obj }) => obj.customPayload) @IsStringRecord({ maxKeys: 50, maxKeyLength: 100, maxValueLength: 1000 })
  customPayload?: Record<string, string>;

  @ApiPropertyOptional({ example: 'contact-981', minLength: 1, maxLength: 255 })
  @IsOptional() @IsString() @TextLength(1, 255)
  contactId?: string;

  @ApiPropertyOptional({ enum: MESSAGE_PRIORITIES, default: 'normal' })
  @IsOptional() @IsIn(MESSAGE_PRIORITIES)
  priority?: MessagePriority;

  @ApiPropertyOptional({ type: WebhookSettingDto })
  @IsOptional() @IsObject({ message: 'must be an object {url, status}' }) @ValidateNested() @Type(() => WebhookSettingDto)
  webhook?: WebhookSettingDto;

  @ApiPropertyOptional({
    type: String, format: 'date-time', example: SCHEDULED_AT_EXAMPLE,
    description: 'Send at this moment rather than now: ISO 8601 with an offset or Z, at most 30 days ahead; a past moment means now. The message is `scheduled` until then and can be canceled (POST /user/messages/{id}/cancel).',
  })
  @IsOptional() @Validate(ScheduledAtRule)
  scheduledAt?: string;
}
