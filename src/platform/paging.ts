import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { toInteger } from './validation/query-values';

// Beyond this page, `skip` would no longer be an exact JSON integer.
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / 100);

/** `take` and `page` as the seed defines them for lists (1–100, default 10; from 1). */
export class PageQuery {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'Items per page' })
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(100)
  take: number = 10;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE,
    default: 1,
    description: 'Page number, from 1',
  })
  @Transform(toInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE)
  page: number = 1;
}

/** The envelope of a page: `skip = (page-1)*take`, `totalPages = ceil(total/take)`, `hasNext = page < totalPages`. */
export function pageEnvelope({ take, page }: PageQuery, total: number) {
  const totalPages = Math.ceil(total / take);
  return { take, page, skip: (page - 1) * take, total, totalPages, hasNext: page < totalPages };
}

/** The envelope's fields in a list's answer (pageEnvelope), for the answers that carry one. */
export class PageEnvelope {
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
}
