import { ApiProperty } from '@nestjs/swagger';

export class AttachmentResponse {
  @ApiProperty({ format: 'uuid', description: 'Pass it in `attachmentIds` of POST /sender/send' })
  id!: string;

  @ApiProperty({ example: 'invoice.pdf' })
  fileName!: string;

  @ApiProperty({ example: 'application/pdf' })
  contentType!: string;

  @ApiProperty({ example: 48213, description: 'Bytes' })
  size!: number;

  @ApiProperty({ format: 'date-time', example: '2026-03-01T12:00:00.000Z' })
  createdAt!: string;
}
