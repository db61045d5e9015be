import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { MESSAGE_PRIORITIES, MESSAGE_STATUSES } from '../message-status';
import type { MessagePriority, MessageStatus } from '../message-status';
import { RECIPIENT_STATUSES } from '../recipient-fates';
import type { RecipientStatus, RecipientType } from '../recipient-fates';

export class RecipientFateResponse {
  @ApiProperty({ example: 'ada@example.com', description: 'The address part as given (display name dropped)' })
  email!: string;

  @ApiProperty({ enum: ['to', 'cc', 'bcc'], example: 'to' })
  type!: RecipientType;

  @ApiProperty({ enum: RECIPIENT_STATUSES, example: 'failed' })
  status!: RecipientStatus;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The SMTP reply, report diagnostic or suppression reason that set the status; null while pending',
    example: '550 5.1.1 <ada@example.com>: Recipient address rejected: User unknown',
  })
  detail!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-03-01T12:00:01.250Z', description: 'The last change' })
  at!: string;

  @ApiProperty({
    type: () => RecipientRouteResponse,
    nullable: true,
    description:
      'Where the last delivery transaction that reached a server for this recipient went: the server (an MX host, or the relay as host:port) and whether TLS protected the session; null while none was reached (and for the outbox)',
  })
  route!: RecipientRouteResponse | null;
}

export class RecipientRouteResponse {
  @ApiProperty({
    example: 'mx1.example.com',
    description: 'The server that answered: an MX host, or the relay (host:port)',
  })
  host!: string;

  @ApiProperty({ example: true, description: 'Whether TLS protected the SMTP session' })
  tls!: boolean;
}

export class StatusHistoryEntry {
  @ApiProperty({ enum: MESSAGE_STATUSES })
  status!: MessageStatus;

  @ApiProperty({ format: 'date-time', example: '2026-03-01T12:00:00.000Z' })
  at!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'SMTP reply or error behind the change; for a report, its diagnostic',
    example: null,
  })
  detail!: string | null;

  @ApiPropertyOptional({
    description:
      'The recipient an entry is about (a refusal, a suppression, a bounce, a complaint, a delay notice); absent otherwise',
    example: 'ada@example.com',
  })
  recipient?: string;
}

export class MessageResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({
    type: 'array',
    items: { type: 'string' },
    example: ['ada@example.com'],
    description: 'As given: addresses or mailboxes with display names',
  })
  to!: string[];

  @ApiProperty({ example: 'Your invoice' })
  subject!: string;

  @ApiProperty({ format: 'uuid', description: "Stable id of this user's From address" })
  senderId!: string;

  @ApiProperty({
    enum: MESSAGE_STATUSES,
    example: 'queued',
    description: '`scheduled` until its scheduledAt, then `queued`',
  })
  status!: MessageStatus;

  @ApiProperty({ example: 'user-42', description: 'The `sub` of the token that sent it' })
  userId!: string;

  @ApiProperty({
    format: 'date-time',
    example: '2026-03-01T12:00:00.000Z',
    description: 'When the message was accepted',
  })
  sentAt!: string;

  @ApiProperty({ example: 'billing@example.com', description: 'As given: an address or a mailbox with a display name' })
  sender!: string;

  @ApiProperty({ type: String, nullable: true })
  bulkSendingId!: string | null;

  @ApiProperty({ type: String, nullable: true })
  contactId!: string | null;

  @ApiProperty({ enum: MESSAGE_PRIORITIES, example: 'normal' })
  priority!: MessagePriority;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, nullable: true })
  customPayload!: Record<string, string> | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'string' },
    nullable: true,
    example: null,
    description: 'As given, repeats dropped; null where not given',
  })
  cc!: string[] | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'string' },
    nullable: true,
    example: null,
    description: 'As given, repeats dropped; null where not given',
  })
  bcc!: string[] | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'string' },
    nullable: true,
    example: null,
    description: 'As given; null where not given',
  })
  replyTo!: string[] | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description: 'The moment asked for, if any; `scheduled` until then',
  })
  scheduledAt!: string | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: null,
    description:
      'While `deferred`: when the next delivery attempt is due (DELIVERY_RETRY_DELAYS after the deferral); null in every other status. In a webhook event: as at delivery, null once the message has changed since',
  })
  nextAttemptAt!: string | null;

  @ApiProperty({
    type: [RecipientFateResponse],
    description:
      "Each recipient's own fate, to, cc then bcc, repeats dropped (docs/delivery-and-deliverability.md#statuses): `suppressed` when on the suppression list",
  })
  recipients!: RecipientFateResponse[];

  @ApiPropertyOptional({ type: [StatusHistoryEntry], description: 'Oldest first; present when asked for' })
  statusHistory?: StatusHistoryEntry[];
}
