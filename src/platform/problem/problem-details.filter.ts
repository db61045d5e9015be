import { ArgumentsHost, BadRequestException, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { closeAfterAnswer } from '../http/lingering-close';
import { isDatabaseUnavailable } from './database-unavailable';
import { problemBody } from './problem-details';
import { ProblemError, ServiceUnavailableError } from './problem.errors';
import type { Problem } from './problem.errors';

/** Turns every error, ours or the framework's, into `application/problem+json` (docs/api.md#errors). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const problem =
      hasUndecodablePath(request) && exception instanceof BadRequestException ? UNKNOWN_PATH : toProblem(exception);
    if (problem.status >= 500) this.logger.error({ err: summary(exception), requestId: request.id }, 'Request failed');
    if (response.headersSent) return;
    // Refused before its body came in full: closing is what stops Node reading the rest, of any size.
    if (!request.complete) closeAfterAnswer(request, response);
    for (const [name, value] of Object.entries(problem.headers ?? {})) response.setHeader(name, value);
    const body = problemBody(
      problem.status,
      problem.detail,
      typeof request.id === 'string' ? request.id : '',
      problem.errors,
      problem.type,
    );
    response.status(problem.status).type('application/problem+json').send(JSON.stringify(body));
  }
}

/**
 * Express decodes path parameters as it routes, before any guard, and turns a malformed escape
 * (`/user/messages/%ZZ`) into a 400. Such a path names nothing: 404, like an unknown id (docs/api.md#authentication).
 */
const UNKNOWN_PATH: Problem = { status: 404, type: 'about:blank', detail: 'Nothing exists at this path.' };

function hasUndecodablePath(request: Request): boolean {
  try {
    decodeURIComponent(request.path);
    return false;
  } catch {
    return true;
  }
}

const DATABASE_UNAVAILABLE = new ServiceUnavailableError('The database is not answering; try again shortly.').problem;
const UNEXPECTED: Problem = {
  status: 500,
  type: 'about:blank',
  detail: 'An unexpected error occurred; it has been logged with this request id.',
};

/**
 * Our errors carry their own answer; Nest's (unknown routes, its parsers and guards) carry a
 * status and a message; a database out of reach is an outage (503), anything else our fault.
 */
export function toProblem(exception: unknown): Problem {
  if (exception instanceof ProblemError) return exception.problem;
  if (exception instanceof HttpException)
    return { status: exception.getStatus(), type: 'about:blank', detail: httpExceptionDetail(exception) };
  if (isDatabaseUnavailable(exception)) return DATABASE_UNAVAILABLE;
  return UNEXPECTED;
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
  return {
    type: exception.name,
    message: exception.message.slice(0, 500),
    code,
    constraint,
    table,
    stack: exception.stack,
  };
}
