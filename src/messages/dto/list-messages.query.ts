import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsBoolean, IsIn, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsEmailAddress, IsNotBefore } from '../../platform/validation/validators';
import { PageQuery } from '../../platform/paging';
import { IsDateBound } from '../../platform/validation/date-bound.decorator';
import { toBoolean, toDistinctList } from '../../platform/validation/query-values';
import { addressKey } from '../../platform/mail/addresses';
import { MESSAGE_STATUSES, MessageStatus } from '../message-status';

/** Longer than any subject worth typing, short enough for the trigram index to answer quickly. */
export const MAX_SEARCH_LENGTH = 200;

const toAddressKey = ({ value }: { value: unknown }) => (typeof value === 'string' ? addressKey(value) : value);

/** `GET /user/messages` query (seed §4.1, docs/api.md#routes). */
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
  @IsDateBound('start')
  startDate?: Date;

  @ApiPropertyOptional({
    type: String,
    description: 'Messages sent at or before this date (`2026-03-31`, the whole UTC day) or date-time with an offset',
  })
  @IsDateBound('end')
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

  @ApiPropertyOptional({
    description: 'Free text found in the subject or in a recipient (to, cc, bcc, display names too), case-insensitive',
    minLength: 1,
    maxLength: MAX_SEARCH_LENGTH,
  })
  @IsOptional()
  @IsString()
  @Length(1, MAX_SEARCH_LENGTH)
  @Matches(/^[^\0]*$/, { message: 'must not contain NUL characters' })
  q?: string;
}
