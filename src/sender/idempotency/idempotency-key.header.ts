import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { FieldError } from '../../platform/problem/problem-details';
import { InvalidInputError } from '../../platform/problem/problem.errors';
import { idempotencyKeyOf } from './idempotency-keys';

const parsed = new WeakMap<Request, IdempotencyKeyHeader>();

/**
 * A request's Idempotency-Key header, checked once (docs/api.md#sending) and read by both the interceptor,
 * which reports its error with the body's, and the handler. Its error is thrown by `key()`, in
 * the handler, so that the body's validation has run first (a throw while Nest resolves the
 * handler's arguments would race the body's validation and hide its errors).
 */
export class IdempotencyKeyHeader {
  private constructor(
    private readonly value: string | undefined,
    readonly errors: FieldError[],
  ) {}

  static of(request: Request): IdempotencyKeyHeader {
    let header = parsed.get(request);
    if (!header) {
      header = IdempotencyKeyHeader.parse(request.headers['idempotency-key']);
      parsed.set(request, header);
    }
    return header;
  }

  private static parse(raw: string | string[] | undefined): IdempotencyKeyHeader {
    try {
      return new IdempotencyKeyHeader(idempotencyKeyOf(typeof raw === 'string' ? raw : undefined), []);
    } catch (error) {
      if (error instanceof InvalidInputError) return new IdempotencyKeyHeader(undefined, error.errors);
      throw error;
    }
  }

  /** The key, or undefined when the request has none; throws when the header is invalid. */
  key(): string | undefined {
    if (this.errors.length > 0) throw new InvalidInputError(this.errors);
    return this.value;
  }
}

/** The handler's view of the Idempotency-Key header; use with IdempotencyKeyInterceptor. */
export const IdempotencyKey = createParamDecorator((_: unknown, context: ExecutionContext) =>
  IdempotencyKeyHeader.of(context.switchToHttp().getRequest<Request>()),
);
