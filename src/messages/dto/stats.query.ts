import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsDateBound } from '../../platform/validation/date-bound.decorator';
import { IsNotBefore } from '../../platform/validation/validators';

/** `GET /user/stats` query (docs/api.md#reading-back): a range of whole UTC days, the days of the moments given. */
export class StatsQuery {
  // No examples: Swagger UI would fill them in, and the default (the last 30 days) is what a newcomer wants.
  @ApiPropertyOptional({
    type: String,
    description:
      'First day (`2026-03-01`), or a date-time with an offset whose UTC day is the first; default: 29 days before endDate',
  })
  @IsDateBound('start')
  startDate?: Date;

  @ApiPropertyOptional({
    type: String,
    description:
      'Last day (`2026-03-31`), or a date-time with an offset whose UTC day is the last; default: today (UTC)',
  })
  @IsDateBound('end')
  @IsNotBefore('startDate')
  endDate?: Date;
}
