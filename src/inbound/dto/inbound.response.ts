import { ApiProperty, PickType } from '@nestjs/swagger';
import { MessagePageResponse } from '../../messages';
import { AUTHENTICATION_VERDICTS } from '../mail-verdicts';
import type { AuthenticationVerdict } from '../mail-verdicts';

export class InboundEnvelopeResponse {
  @ApiProperty({ example: 'bounces-42@mailer.example.org', description: 'MAIL FROM; empty for the null sender `<>`' })
  mailFrom!: string;

  @ApiProperty({
    type: [String],
    example: ['support@mail.example.com'],
    description: 'RCPT TO: only your recipients, however many others the mail was for',
  })
  rcptTo!: string[];
}

export class InboundAttachmentResponse {
  @ApiProperty({ example: 0, description: 'Its place among the attachments, for `/attachments/{index}`' })
  index!: number;

  @ApiProperty({ example: 'invoice.pdf' })
  fileName!: string;

  @ApiProperty({ example: 'application/pdf' })
  contentType!: string;

  @ApiProperty({ example: 48213, description: 'Decoded bytes' })
  size!: number;
}

export class InboundAuthenticationResponse {
  @ApiProperty({
    enum: AUTHENTICATION_VERDICTS,
    example: 'pass',
    description: 'SPF of MAIL FROM (or HELO) for the connecting address',
  })
  spf!: AuthenticationVerdict;

  @ApiProperty({
    enum: AUTHENTICATION_VERDICTS,
    example: 'pass',
    description: 'DKIM: `pass` when any signature verifies',
  })
  dkim!: AuthenticationVerdict;

  @ApiProperty({ enum: AUTHENTICATION_VERDICTS, example: 'pass', description: "DMARC of the From header's domain" })
  dmarc!: AuthenticationVerdict;
}

/** A received mail as lists (and the inbound.received event) show it: no bodies. */
export class InboundListItemResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'date-time', example: '2026-03-01T12:00:00.000Z', description: 'When it was stored' })
  receivedAt!: string;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Cara <cara@example.org>',
    description: "The From header's mailbox",
  })
  from!: string | null;

  @ApiProperty({ type: [String], example: ['Support <support@mail.example.com>'] })
  to!: string[];

  @ApiProperty({ type: [String], example: [] })
  cc!: string[];

  @ApiProperty({ type: String, nullable: true, example: 'Re: your invoice' })
  subject!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: '<CAF=a1b2c3@mail.example.org>',
    description: 'Its Message-ID header',
  })
  messageId!: string | null;

  @ApiProperty({ type: InboundEnvelopeResponse })
  envelope!: InboundEnvelopeResponse;

  @ApiProperty({ type: [InboundAttachmentResponse] })
  attachments!: InboundAttachmentResponse[];

  @ApiProperty({
    type: InboundAuthenticationResponse,
    description: 'Results of mailauth, run with DNS_SERVERS for the connecting address; nothing is refused for them',
  })
  authentication!: InboundAuthenticationResponse;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    example: null,
    description: 'The id of your sent message whose Message-ID its In-Reply-To or References names',
  })
  replyToMessageId!: string | null;
}

export class InboundHeaderResponse {
  @ApiProperty({ example: 'Subject', description: 'As written' })
  name!: string;

  @ApiProperty({ example: 'Re: your invoice', description: 'Unfolded, encoded words decoded' })
  value!: string;
}

export class InboundMailResponse extends InboundListItemResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'Thanks, received.',
    description: 'The text/plain body; null when none',
  })
  text!: string | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'The HTML body as sent; null when none' })
  html!: string | null;

  @ApiProperty({ type: [InboundHeaderResponse], description: 'Every top-level header field, in order' })
  headers!: InboundHeaderResponse[];
}

/** The message list's envelope and its date and address filters as applied (docs/inbound.md: paged as the message list). */
export class InboundPageResponse extends PickType(MessagePageResponse, [
  'take',
  'page',
  'skip',
  'total',
  'totalPages',
  'hasNext',
  'startDate',
  'endDate',
  'fromEmail',
  'toEmail',
] as const) {
  @ApiProperty({ type: [InboundListItemResponse], description: 'Newest first' })
  inbound!: InboundListItemResponse[];
}
