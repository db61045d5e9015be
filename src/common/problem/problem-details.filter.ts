import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { closeAfterAnswer } from '../lingering-close';
import { isDatabaseUnavailable } from './database-unavailable';
import { problemBody, RETRY_AFTER_SECONDS } from './problem-details';
import type { FieldError } from './problem-details';
import {
  IdempotencyConflictError, IdempotencyMismatchError, InvalidInputError, InvalidTokenError, NotFoundError, PayloadTooLargeError,
  RateLimitedError, ServiceUnavailableError,
} from './problem.errors';

type Problem = { status: number; detail: string; errors?: FieldError[]; retryAfterSeconds?: number };

/** Turns every error, ours or the framework's, into `application/problem+json` (SPEC §3). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const problem = hasUndecodablePath(request) && exception instanceof BadRequestException ? UNKNOWN_PATH : toProblem(exception);
    if (problem.status >= 500) this.logger.error({ err: summary(exception), requestId: request.id }, 'Request failed');
    if (response.headersSent) return;
    // Refused before its body came in full: closing is what stops Node reading the rest, of any size.
    if (!request.complete) closeAfterAnswer(request, response);
    if (problem.status === HttpStatus.UNAUTHORIZED) {
      response.setHeader('WWW-Authenticate', 'Bearer error="invalid_token"');
    }
    if (problem.retryAfterSeconds !== undefined) response.setHeader('Retry-After', String(problem.retryAfterSeconds));
    const body = problemBody(problem.status, problem.detail, String(request.id ?? ''), problem.errors);
    response.status(problem.status).type('application/problem+json').send(JSON.stringify(body));
  }
}

/**
 * Express decodes path parameters as it routes, before any guard, and turns a malformed escape
 * (`/user/messages/%ZZ`) into a 400. Such a path names nothing: 404, like an unknown id (SPEC §2).
 */
const UNKNOWN_PATH: Problem = { status: 404, detail: 'Nothing exists at this path.' };

function hasUndecodablePath(request: Request): boolean {
  try {
    decodeURIComponent(request.path);
    return false;
  } catch {
    return true;
  }
}

export function toProblem(exception: unknown): Problem {
  if (exception instanceof InvalidInputError) {
    return { status: 400, detail: exception.message, errors: exception.errors };
  }
  if (exception instanceof NotFoundError) return { status: 404, detail: exception.message };
  if (exception instanceof PayloadTooLargeError) return { status: 413, detail: exception.message };
  if (exception instanceof InvalidTokenError) return { status: 401, detail: exception.message };
  if (exception instanceof ServiceUnavailableError) return { status: 503, detail: exception.message, retryAfterSeconds: RETRY_AFTER_SECONDS };
  if (exception instanceof RateLimitedError) return { status: 429, detail: exception.message };
  if (exception instanceof IdempotencyConflictError) return { status: 409, detail: exception.message };
  if (exception instanceof IdempotencyMismatchError) return { status: 422, detail: exception.message };
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), detail: httpExceptionDetail(exception) };
  }
  if (isDatabaseUnavailable(exception)) {
    return { status: 503, detail: 'The database is not answering; try again shortly.', retryAfterSeconds: RETRY_AFTER_SECONDS };
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
