import { STATUS_CODES } from 'node:http';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldError {
  @ApiProperty({ example: 'to[0]', description: 'Path of the failing field in the body or query' })
  field!: string;

  @ApiProperty({ example: 'must be an email address' })
  message!: string;
}

/** RFC 9457 problem details, the body of every error response (docs/api.md#errors). */
export class ProblemDetails {
  @ApiProperty({ example: 'about:blank' })
  type!: string;

  @ApiProperty({ example: 'Bad Request' })
  title!: string;

  @ApiProperty({ type: 'integer', example: 400 })
  status!: number;

  @ApiProperty({ example: 'The request has 1 invalid field.' })
  detail!: string;

  @ApiPropertyOptional({ type: [FieldError] })
  errors?: FieldError[];

  @ApiProperty({
    example: '0f8fad5b-d9cb-469f-a165-70867728950e',
    description: 'Also in the X-Request-Id header and the logs',
  })
  requestId!: string;
}

/** Seconds a client should wait after a 503 (the database away, a restart, a shutdown): about a restart's length. */
export const RETRY_AFTER_SECONDS = 5;

/** The one way a problem body is built, by the filter and by the answers given outside Nest. */
export function problemBody(
  status: number,
  detail: string,
  requestId: string,
  errors?: FieldError[],
  type = 'about:blank',
): ProblemDetails {
  return { type, title: STATUS_CODES[status] ?? 'Error', status, detail, ...(errors && { errors }), requestId };
}
