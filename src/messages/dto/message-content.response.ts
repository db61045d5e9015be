import { ApiProperty } from '@nestjs/swagger';

export class ContentAttachmentResponse {
  @ApiProperty({
    example: 0,
    description: 'Its place in delivery order: `GET /user/messages/{id}/attachments/{index}`',
  })
  index!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'invoice-2026-03.pdf',
    description: 'null: a part without a name (SMTP)',
  })
  fileName!: string | null;

  @ApiProperty({ example: 'application/pdf', description: 'As stored, and as the download is served' })
  contentType!: string;

  @ApiProperty({ example: 48213, description: 'Decoded bytes' })
  size!: number;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: "An inline part's Content-ID (what the HTML's `cid:` links name); null: an ordinary attachment",
  })
  contentId!: string | null;
}

/** `GET /user/messages/{id}/content` (docs/api.md#reading-back). */
export class MessageContentResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    example: '<p>Your invoice is attached.</p>',
    description: 'null: a text-only message',
  })
  html!: string | null;

  @ApiProperty({
    example: 'Your invoice is attached.',
    description: 'As given, or as derived from the HTML for delivery',
  })
  text!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { 'X-Campaign': 'spring' },
    description: 'The custom headers (`{}` when none); for a message submitted over SMTP, its own fields of that kind',
  })
  headers!: Record<string, string>;

  @ApiProperty({
    type: [ContentAttachmentResponse],
    description: 'Inline and attached, in the order they are delivered',
  })
  attachments!: ContentAttachmentResponse[];
}
