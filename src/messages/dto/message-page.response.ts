import { ApiProperty } from '@nestjs/swagger';
import { PageEnvelope } from '../../platform/paging';
import { MessageResponse } from './message.response';

export class MessagePageResponse extends PageEnvelope {
  @ApiProperty({ type: [MessageResponse] })
  messages!: MessageResponse[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'The filter applied, normalized' })
  startDate!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  endDate!: string | null;

  @ApiProperty({ type: String, format: 'email', nullable: true })
  fromEmail!: string | null;

  @ApiProperty({ type: String, format: 'email', nullable: true })
  toEmail!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'sent,failed' })
  statuses!: string | null;

  @ApiProperty({ type: String, nullable: true })
  bulkSending!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The free-text search applied' })
  q!: string | null;
}
