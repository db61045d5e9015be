import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Validate,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import {
  EachMailbox,
  HasDistinctContentIds,
  HasNoLineBreaks,
  IsCustomHeaders,
  IsMailbox,
  IsNotBlank,
  IsRequiredWithout,
  IsStringRecord,
  MaxUtf8Bytes,
  TextLength,
} from '../../platform/validation/validators';
import { distinctRecipients } from '../../messages';
import { MESSAGE_PRIORITIES } from '../../messages';
import type { MessagePriority } from '../../messages';
import { InlineAttachmentDto } from './inline-attachment.dto';
import { MaxRecipientsRule } from './max-recipients.rule';
import { ScheduledAtRule } from './scheduled-at.rule';
import { SCHEDULED_AT_EXAMPLE } from './send-message.examples';
import { WebhookSettingDto } from './webhook-setting.dto';

const MAX_HTML_BYTES = 5 * 1024 * 1024;
const MAX_TEXT_BYTES = 5 * 1024 * 1024;

/**
 * Drops repeated recipients of one field, and those already in an earlier field (to, then cc,
 * then bcc), compared by address part case-insensitively, keeping the first spelling.
 */
const distinctIn =
  (field: 'to' | 'cc' | 'bcc') =>
  ({ value, obj }: { value: unknown; obj: Record<string, unknown> }): unknown =>
    distinctRecipients({ to: asList(obj.to), cc: asList(obj.cc), bcc: asList(obj.bcc), [field]: asList(value) })[field];

/** One address as a string is a list of one, as Resend takes it (`"to": "ada@example.com"`). */
const asList = (value: unknown): unknown => (typeof value === 'string' ? [value] : value);
const oneOrMany = ({ value }: { value: unknown }): unknown => asList(value);

const MAILBOX_DESCRIPTION =
  'an address, or a mailbox with a display name (Ada Lovelace <ada@example.com>, "Lovelace, Ada" <ada@example.com>)';
// `format: email` as before: the address part is one; the description says a display name may come with it.
// No `format: email`: a mailbox with a display name is not an RFC 5322 addr-spec, and a client
// generated from the document would refuse it.
const MAILBOXES = { type: 'array', items: { type: 'string' } } as const;
/** A list of mailboxes, or one as a plain string (docs/api.md#sending). */
const oneOrManyMailboxes = (list: { minItems?: number; maxItems?: number } = {}) => ({
  oneOf: [{ type: 'string' }, { ...MAILBOXES, ...list }],
});

/** `POST /sender/send` body (seed §4.2, docs/api.md#sending). Unknown fields are refused. */
export class SendMessageDto {
  @ApiProperty({ example: 'Your invoice', minLength: 1, maxLength: 998 })
  @IsString()
  @TextLength(1, 998)
  @HasNoLineBreaks()
  @IsNotBlank()
  subject!: string;

  @ApiPropertyOptional({
    example: '<p>Hello Ada, your invoice is attached.</p>',
    minLength: 1,
    description:
      'HTML body, 1 character to 5 MiB. `html` or `text` is required: without html, the mail is text-only (one text/plain part, no HTML part)',
  })
  // Checked when given, and when text is not: then its absence is the error.
  @ValidateIf((body: SendMessageDto) => body.html != null || body.text == null)
  @IsRequiredWithout('text')
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  @MaxUtf8Bytes(MAX_HTML_BYTES)
  html?: string;

  @ApiProperty({
    ...oneOrManyMailboxes({ minItems: 1 }),
    example: ['ada@example.com', 'Grace Hopper <grace@example.com>'],
    description: `Recipients, each ${MAILBOX_DESCRIPTION}; one may be given as a string rather than a list. Duplicates (by address, case-insensitive, also across cc and bcc) are dropped; then to, cc and bcc together at most MAX_RECIPIENTS`,
  })
  @Transform(distinctIn('to'))
  @IsArray()
  @ArrayNotEmpty()
  @Validate(MaxRecipientsRule)
  @IsMailbox({
    each: true,
    message: 'must contain only email addresses (name@example.com) or mailboxes (Ada Lovelace <ada@example.com>)',
  })
  to!: string[];

  @ApiProperty({
    example: 'Billing <billing@example.com>',
    description: `The From: ${MAILBOX_DESCRIPTION}; its address alone decides senderId`,
  })
  @IsMailbox()
  sender!: string;

  @ApiPropertyOptional({
    ...oneOrManyMailboxes(),
    example: ['accounts@example.com'],
    description: `Copy recipients, shown in the Cc header; each ${MAILBOX_DESCRIPTION}; one may be a string`,
  })
  @IsOptional()
  @Transform(distinctIn('cc'))
  @IsArray()
  @EachMailbox()
  cc?: string[];

  @ApiPropertyOptional({
    ...oneOrManyMailboxes(),
    example: ['archive@example.com'],
    description: `Blind copy recipients: in the SMTP envelope only, never in a header; each ${MAILBOX_DESCRIPTION}; one may be a string`,
  })
  @IsOptional()
  @Transform(distinctIn('bcc'))
  @IsArray()
  @EachMailbox()
  bcc?: string[];

  @ApiPropertyOptional({
    ...oneOrManyMailboxes({ minItems: 1, maxItems: 10 }),
    example: ['Support <support@example.com>'],
    description: `Reply-To addresses, each ${MAILBOX_DESCRIPTION}; one may be a string`,
  })
  @IsOptional()
  @Transform(oneOrMany)
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(10)
  @EachMailbox()
  replyTo?: string[];

  @ApiPropertyOptional({
    example: 'Hello Ada, your invoice is attached.',
    minLength: 1,
    description:
      'Plain-text body, 1 character to 5 MiB; absent: derived from html. `html` or `text` is required; text alone sends a text-only mail',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty({ message: 'must not be empty' })
  @MaxUtf8Bytes(MAX_TEXT_BYTES)
  text?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 998 },
    maxProperties: 20,
    example: { 'X-Campaign': 'march-invoices' },
    description:
      'At most 20 custom headers: names of 1-100 printable ASCII characters other than ":", not one the service writes itself (From, To, Cc, Bcc, Reply-To, Subject, Date, Message-ID, MIME-Version, Content-*, DKIM-Signature, Return-Path, Received, List-Unsubscribe*; any letter case); values of 1-998 characters, not all white space, without line breaks or other control characters',
  })
  // The parsed JSON as sent, as for customPayload.
  @IsOptional()
  @Transform(({ obj }: { obj: SendMessageDto }) => obj.headers)
  @IsCustomHeaders({ maxHeaders: 20, maxValueLength: 998 })
  headers?: Record<string, string>;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'string', format: 'uuid' },
    maxItems: 20,
    description:
      'Ids of attachments you stored with POST /attachments; these go as attachments, never inline (no contentId)',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsUUID('all', { each: true, message: 'must contain only attachment ids (UUIDs)' })
  attachmentIds?: string[];

  @ApiPropertyOptional({
    type: [InlineAttachmentDto],
    maxItems: 20,
    description:
      'Files sent with the body; with the stored ones at most MAX_ATTACHMENT_BYTES in all. One with a contentId is shown inside the HTML (`cid:`) rather than as an attachment',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsObject({ each: true, message: 'must contain only {fileName, content} objects' })
  @HasDistinctContentIds()
  @ValidateNested({ each: true })
  @Type(() => InlineAttachmentDto)
  attachments?: InlineAttachmentDto[];

  @ApiPropertyOptional({ example: 'march-newsletter', minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @TextLength(1, 255)
  bulkSendingId?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 1000 },
    maxProperties: 50,
    example: { orderId: '1234' },
    description: 'At most 50 keys of 1-100 characters; values strings of at most 1,000',
  })
  // The parsed JSON as sent: class-transformer would otherwise rebuild it and could lose keys.
  @IsOptional()
  @Transform(({ obj }: { obj: SendMessageDto }) => obj.customPayload)
  @IsStringRecord({ maxKeys: 50, maxKeyLength: 100, maxValueLength: 1000 })
  customPayload?: Record<string, string>;

  @ApiPropertyOptional({ example: 'contact-981', minLength: 1, maxLength: 255 })
  @IsOptional()
  @IsString()
  @TextLength(1, 255)
  contactId?: string;

  @ApiPropertyOptional({ enum: MESSAGE_PRIORITIES, default: 'normal' })
  @IsOptional()
  @IsIn(MESSAGE_PRIORITIES)
  priority?: MessagePriority;

  @ApiPropertyOptional({ type: WebhookSettingDto })
  @IsOptional()
  @IsObject({ message: 'must be an object {url, status}' })
  @ValidateNested()
  @Type(() => WebhookSettingDto)
  webhook?: WebhookSettingDto;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    example: SCHEDULED_AT_EXAMPLE,
    description:
      'Send at this moment rather than now: ISO 8601 with an offset or Z, at most 30 days ahead; a past moment means now. The message is `scheduled` until then and can be canceled (POST /user/messages/{id}/cancel).',
  })
  @IsOptional()
  @Validate(ScheduledAtRule)
  scheduledAt?: string;
}
