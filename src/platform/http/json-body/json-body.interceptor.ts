import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { json, Request, Response } from 'express';
import { Observable } from 'rxjs';
import { BodyLimit, BodyReadDeadline } from '../body-limit';
import { MalformedBodyError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../problem/problem.errors';
import { inspectJson } from './inspect-json';

export const MAX_BODY_BYTES = 20 * 1024 * 1024;
const TOO_LARGE = 'The body is larger than 20 MiB.';
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
const parse = json({ limit: MAX_BODY_BYTES, type: () => true, strict: true });

/**
 * Reads a JSON body for one route, after the bearer token was checked (interceptors run after
 * guards), so that nobody without a token gets 20 MiB parsed. Other media types get 415; JSON
 * that is not an object, too deep, or carries NUL or a reserved key gets 400; one that has not
 * come whole within BODY_READ_TIMEOUT_MS gets 408 (and gives its large-body turn back).
 */
@Injectable()
export class JsonBodyInterceptor implements NestInterceptor {
  constructor(private readonly deadline: BodyReadDeadline) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<Request>();
    const [mediaType, ...parameters] = (request.headers['content-type'] ?? '')
      .toLowerCase()
      .split(';')
      .map((p) => p.trim());
    if (!JSON_MEDIA_TYPE.test(mediaType)) {
      throw new UnsupportedMediaTypeError('The body must be JSON, sent with Content-Type: application/json.');
    }
    // RFC 8259: JSON between systems is UTF-8.
    const charset = parameters
      .find((p) => p.startsWith('charset='))
      ?.slice('charset='.length)
      .replace(/"/g, '');
    if (charset && charset !== 'utf-8' && charset !== 'utf8') {
      throw new UnsupportedMediaTypeError('The body must be UTF-8 JSON.');
    }
    await new BodyLimit(request, MAX_BODY_BYTES, TOO_LARGE, this.deadline.ms).race(
      () =>
        new Promise<void>((resolve, reject) =>
          parse(request, context.switchToHttp().getResponse<Response>(), (error?: unknown) =>
            error ? reject(readError(error)) : resolve(),
          ),
        ),
    );
    inspectJson(request.body);
    return next.handle();
  }
}

/** body-parser's failures, in our terms; its own messages would quote the body back. */
function readError(error: unknown): Error {
  const { type, status } = error as { type?: string; status?: number };
  if (type === 'entity.parse.failed') return new MalformedBodyError('The body is not valid JSON.');
  if (type === 'entity.too.large') return new PayloadTooLargeError(TOO_LARGE);
  if (status === 415) return new UnsupportedMediaTypeError('The body must be UTF-8 JSON without a Content-Encoding.');
  return new MalformedBodyError('The body could not be read.');
}
