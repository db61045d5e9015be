import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, Observable } from 'rxjs';
import { InvalidInputError } from '../../platform/problem/problem.errors';
import { IdempotencyKeyHeader } from './idempotency-key.header';

/**
 * Reports an invalid Idempotency-Key header with the body's errors (docs/api.md#errors: every failing
 * field): the body is validated inside next.handle(), so a refused body's error passes here.
 * With a valid body, the handler's IdempotencyKeyHeader.key() throws the header's error alone.
 */
@Injectable()
export class IdempotencyKeyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const keyErrors = IdempotencyKeyHeader.of(context.switchToHttp().getRequest<Request>()).errors;
    if (keyErrors.length === 0) return next.handle();
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (error instanceof InvalidInputError && !error.errors.some((e) => e.field === 'Idempotency-Key')) {
          throw new InvalidInputError([...keyErrors, ...error.errors]);
        }
        throw error;
      }),
    );
  }
}
