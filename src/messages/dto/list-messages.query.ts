import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsDate, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsEmailAddress, IsNotBefore } from '../../common/validation/validators';
import { PageQuery } from '../../common/paging';
import { toBoolean, toDateBound, toDistinctList } from '../../common/validation/query-values';
import { addressKey } from '../../common/addresses';
import { MESSAGE_STATUSES, MessageStatus } from '../message-status';

const toAddressKey = ({ value }: { value: unknown }) => (typeof value === 'string' ? addressKey(value) : value);

export const DATE_MESSAGE = 'must be an ISO 8601 date (2026-03-01) or date-time with an offset (2026-03-01T12:00:00Z)';

/** `GET /user/messages` query (seed §4.1, SPEC §6). */
export class ListMessagesQuery extends PageQuery {
  @ApiPropertyOptional({ default: false, description: "Include each message's status history (true/false/1/0)" })
  @Transform(toBoolean)
  @IsBoolean({ message: 'must be true, false, 1 or 0' })
  includeStatusHistory: boolean = false;

  // No examples on the filters: Swagger UI would fill them in and hide the caller's own mail.
  @ApiPropertyOptional({
    type: String,
    description:
      'Messages sent at or after this date (`2026-03-01`, a whole UTC day) or date-time with an offset (`2026-03-01T12:00:00Z`)',
  })
  @IsOptional()
  @Transform(toDateBound('start'))
  @IsDate({ message: DATE_MESSAGE })
  startDate?: Date;

  @ApiPropertyOptional({
    type: String,
    description: 'Messages sent at or before this date (`2026-03-31`, the whole UTC day) or date-time with an offset',
  })
  @IsOptional()
  @Transform(toDateBound('end'))
  @IsDate({ message: DATE_MESSAGE })
  @IsNotBefore('startDate')
  endDate?: Date;

  @ApiPropertyOptional({ format: 'email', description: 'Sender (From) address, case-insensitive' })
  @IsOptional()
  @Transform(toAddressKey)
  @IsEmailAddress()
  fromEmail?: string;

  @ApiPropertyOptional({ format: 'email', description: 'One of the recipients, case-insensitive' })
  @IsOptional()
  @Transform(toAddressKey)
  @IsEmailAddress()
  toEmail?: string;

  @ApiPropertyOptional({
    type: String,
    description: `Comma-separated statuses (\`sent,failed\`): ${MESSAGE_STATUSES.join(', ')}`,
  })
  @IsOptional()
  @Transform(toDistinctList)
  @ArrayNotEmpty()
  @IsIn(MESSAGE_STATUSES, { each: true, message: `must list only these statuses: ${MESSAGE_STATUSES.join(', ')}` })
  statuses?: MessageStatus[];

  @ApiPropertyOptional({ description: 'Exact bulkSendingId' })
  @IsOptional()
  @IsString()
  @Length(1, 255)
  @Matches(/^[^\0]*$/, { message: 'must not contain NUL characters' })
  bulkSending?: string;
}
