import { ApiProperty } from '@nestjs/swagger';
import { MessageResponse } from './message.response';

export class MessagePageResponse {
  @ApiProperty({ type: [MessageResponse] })
  messages!: MessageResponse[];

  @ApiProperty({ example: 10 })
  take!: number;

  @ApiProperty({ example: 1 })
  page!: number;

  @ApiProperty({ example: 0 })
  skip!: number;

  @ApiProperty({ example: 42 })
  total!: number;

  @ApiProperty({ example: 5 })
  totalPages!: number;

  @ApiProperty({ example: true })
  hasNext!: boolean;

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
}
