import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDate, IsOptional } from 'class-validator';
import { toDateBound } from './query-values';

export const DATE_MESSAGE = 'must be an ISO 8601 date (2026-03-01) or date-time with an offset (2026-03-01T12:00:00Z)';

/**
 * An optional query bound of a range (docs/api.md#routes): an ISO 8601 date (a whole UTC day) or a date-time
 * with an offset, read as the instant that starts or ends the range; anything else a 400.
 */
export const IsDateBound = (bound: 'start' | 'end') =>
  applyDecorators(IsOptional(), Transform(toDateBound(bound)), IsDate({ message: DATE_MESSAGE }));
