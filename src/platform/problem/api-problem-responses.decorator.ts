import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { HeaderObject } from '@nestjs/swagger';
import { STATUS_CODES } from 'node:http';
import { ProblemDetails } from './problem-details';

const RETRY_AFTER: Record<string, HeaderObject> = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};

/** When each status happens, an example as the server writes it, and the headers that come with it. */
const PROBLEMS: Record<
  number,
  { when: string; detail: string; errors?: ProblemDetails['errors']; headers?: Record<string, HeaderObject> }
> = {
  400: {
    when: 'Invalid input: every failing field is listed in `errors`; nothing was stored',
    detail: 'The request has 1 invalid field.',
    errors: [{ field: 'to[0]', message: 'must contain only email addresses (name@example.com)' }],
  },
  401: {
    when: 'Missing, malformed, expired or wrongly signed bearer token',
    detail: 'The token has expired.',
    headers: { 'WWW-Authenticate': { description: '`Bearer error="invalid_token"`', schema: { type: 'string' } } },
  },
  404: { when: 'None of yours has this id', detail: 'Message 0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e does not exist.' },
  409: {
    when: 'A request with this Idempotency-Key is still in flight',
    detail: 'A request with this Idempotency-Key is still being processed; retry when it has finished.',
  },
  413: {
    when: 'Body or attachments too large',
    detail: 'The attachments come to 10485761 bytes; the limit per message is 10485760.',
  },
  415: {
    when: 'The body is not of the media type the operation takes',
    detail: 'The body must be JSON, sent with Content-Type: application/json.',
  },
  422: {
    when: 'This Idempotency-Key was used with a different body',
    detail: 'This Idempotency-Key was used with a different body in the last 24 hours; use a new key.',
  },
  429: {
    when: 'Over RATE_LIMIT_PER_MINUTE: see Retry-After and the RateLimit-* headers',
    detail: 'More than 600 requests in a minute; retry after 42 s.',
    headers: RETRY_AFTER,
  },
  500: {
    when: 'A fault of ours, logged under the requestId',
    detail: 'An unexpected error occurred; it has been logged with this request id.',
  },
  503: {
    when: "The database (or the identity provider's keys) cannot be reached right now: retry after Retry-After",
    detail: 'The database is not answering; try again shortly.',
    headers: RETRY_AFTER,
  },
};

/** A status whose meaning is the operation's own (a 409 that is not about an Idempotency-Key). */
export interface OwnProblem {
  status: number;
  when: string;
  detail: string;
}

/** Documents the problem+json responses an operation can give, besides the 500 and 503 that any can. */
export function ApiProblemResponses(...statuses: (number | OwnProblem)[]) {
  return applyDecorators(
    ApiExtraModels(ProblemDetails),
    ...[...statuses, 500, 503].map((given) => {
      const status = typeof given === 'number' ? given : given.status;
      const { when, detail, errors, headers } =
        typeof given === 'number' ? PROBLEMS[status] : { ...PROBLEMS[status], ...given };
      const example: ProblemDetails = {
        type: 'about:blank',
        title: STATUS_CODES[status]!,
        status,
        detail,
        ...(errors && { errors }),
        requestId: '0f8fad5b-d9cb-469f-a165-70867728950e',
      };
      return ApiResponse({
        status,
        description: when,
        headers,
        content: { 'application/problem+json': { schema: { $ref: getSchemaPath(ProblemDetails) }, example } },
      });
    }),
  );
}
