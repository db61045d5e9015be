import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import type { FieldError, ProblemDetails } from './problem-details';
import { InvalidInputError, InvalidTokenError, NotFoundError, PayloadTooLargeError } from './problem.errors';

type Problem = { status: number; detail: string; errors?: FieldError[] };

/** Turns every error, ours or the framework's, into `application/problem+json` (SPEC §3). */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger(ProblemDetailsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const problem = toProblem(exception);
    if (problem.status >= 500) this.logger.error(exception);
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
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), detail: httpExceptionDetail(exception) };
  }
  const bodyParserError = asBodyParserError(exception);
  if (bodyParserError) return bodyParserError;
  return { status: 500, detail: 'An unexpected error occurred; it has been logged with this request id.' };
}

function httpExceptionDetail(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

/** Express's body parser reports its failures as errors with a `type` and a 4xx `status`. */
function asBodyParserError(exception: unknown): Problem | undefined {
  const error = exception as { type?: unknown; status?: unknown; limit?: unknown } | null;
  if (!error || typeof error.type !== 'string' || typeof error.status !== 'number') return undefined;
  switch (error.type) {
    case 'entity.parse.failed':
      return { status: 400, detail: 'The body is not valid JSON.' };
    case 'entity.too.large':
      return { status: 413, detail: `The body is larger than the limit of ${error.limit} bytes.` };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: 415, detail: 'The body must be UTF-8 encoded JSON.' };
    default:
      return error.status >= 400 && error.status < 500
        ? { status: error.status, detail: 'The body could not be read.' }
        : undefined;
  }
}
