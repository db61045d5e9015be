import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import type { FieldError, ProblemDetails } from './problem-details';
import {
  IdempotencyConflictError, IdempotencyMismatchError, InvalidInputError, InvalidTokenError, NotFoundError, PayloadTooLargeError,
  RateLimitedError, ServiceUnavailableError,
} from './problem.errors';

type Problem = { status: number; detail: string; errors?: FieldError[] };

/** Turns every error, ours or the framework's, into `application/problem+json` (SPEC §3). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const problem = toProblem(exception);
    if (problem.status >= 500) this.logger.error({ err: summary(exception), requestId: request.id }, 'Request failed');
    if (response.headersSent) return;
    if (problem.status === HttpStatus.UNAUTHORIZED) {
      response.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
    }
    const body: ProblemDetails = {
      type: 'about:blank',
      title: STATUS_CODES[problem.status] ?? 'Error',
      status: problem.status,
      detail: problem.detail,
      ...(problem.errors && { errors: problem.errors }),
      requestId: String(request.id ?? ''),
    };
    response.status(problem.status).type('application/problem+json').send(JSON.stringify(body));
  }
}

export function toProblem(exception: unknown): Problem {
  if (exception instanceof InvalidInputError) {
    return { status: 400, detail: exception.message, errors: exception.errors };
  }
  if (exception instanceof NotFoundError) return { status: 404, detail: exception.message };
  if (exception instanceof PayloadTooLargeError) return { status: 413, detail: exception.message };
  if (exception instanceof InvalidTokenError) return { status: 401, detail: exception.message };
  if (exception instanceof ServiceUnavailableError) return { status: 503, detail: exception.message };
  if (exception instanceof RateLimitedError) return { status: 429, detail: exception.message };
  if (exception instanceof IdempotencyConflictError) return { status: 409, detail: exception.message };
  if (exception instanceof IdempotencyMismatchError) return { status: 422, detail: exception.message };
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), detail: httpExceptionDetail(exception) };
  }
  return { status: 500, detail: 'An unexpected error occurred; it has been logged with this request id.' };
}

function httpExceptionDetail(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/**
 * What the log keeps of an unexpected error: never the whole object, since a database error
 * carries its query parameters, which hold message bodies and addresses.
 */
function summary(exception: unknown): Record<string, unknown> {
  if (!(exception instanceof Error)) return { value: String(exception).slice(0, 200) };
  const { code, constraint, table } = exception as { code?: string; constraint?: string; table?: string };
  return { type: exception.name, message: exception.message.slice(0, 500), code, constraint, table, stack: exception.stack };
}
