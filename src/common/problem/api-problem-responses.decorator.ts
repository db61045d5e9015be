import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { ProblemDetails } from './problem-details';

const WHEN: Record<number, string> = {
  400: 'Invalid input: every failing field is listed in `errors`',
  401: 'Missing, malformed, expired or wrongly signed bearer token',
  404: 'No such resource for this user',
  413: 'Body or attachments too large',
  409: 'A request with this Idempotency-Key is still in flight',
  415: 'The body is not JSON',
  422: 'This Idempotency-Key was used with a different body',
  429: 'Over RATE_LIMIT_PER_MINUTE: see Retry-After and the RateLimit-* headers',
};

/** Documents the problem+json responses an operation can give, besides the 500 that any can. */
export function ApiProblemResponses(...statuses: number[]) {
  return applyDecorators(
    ApiExtraModels(ProblemDetails),
    ...[...statuses, 500].map((status) =>
      ApiResponse({
        status,
        description: WHEN[status] ?? STATUS_CODES[status],
        content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDetails) } } },
      }),
    ),
  );
}
