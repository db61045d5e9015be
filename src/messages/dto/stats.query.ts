import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDate, IsOptional } from 'class-validator';
import { toDateBound } from '../../common/validation/query-values';
import { IsNotBefore } from '../../common/validation/validators';
import { DATE_MESSAGE } from './list-messages.query';

/** `GET /user/stats` query (SPEC §12): a range of whole UTC days, the days of the moments given. */
export class StatsQuery {
  // No examples: Swagger UI would fill them in, and the default (the last 30 days) is what a newcomer wants.
  @ApiPropertyOptional({
    type: String,
    description:
      'First day (`2026-03-01`), or a date-time with an offset whose UTC day is the first; default: 29 days before endDate',
  })
  @IsOptional()
  @Transform(toDateBound('start'))
  @IsDate({ message: DATE_MESSAGE })
  startDate?: Date;

  @ApiPropertyOptional({
    type: String,
    description:
      'Last day (`2026-03-31`), or a date-time with an offset whose UTC day is the last; default: today (UTC)',
  })
  @IsOptional()
  @Transform(toDateBound('end'))
  @IsDate({ message: DATE_MESSAGE })
  @IsNotBefore('startDate')
  endDate?: Date;
}
