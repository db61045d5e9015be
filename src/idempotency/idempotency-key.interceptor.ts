import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { catchError, Observable } from 'rxjs';
import { InvalidInputError } from '../common/problem/problem.errors';
import { idempotencyKeyOf } from './idempotency-keys';

/**
 * Checks the Idempotency-Key header where its error can join the body's (SPEC §3: every failing
 * field): the body is validated inside next.handle(), so a refused body's error passes here.
 * With a valid body, the handler reads the key with idempotencyKeyOf() and throws the same error.
 */
@Injectable()
export class IdempotencyKeyInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const header = context.switchToHttp().getRequest<Request>().headers['idempotency-key'];
    const keyErrors = headerErrors(typeof header === 'string' ? header : undefined);
    return next.handle().pipe(
      catchError((error: unknown) => {
        if (error instanceof InvalidInputError && keyErrors.length > 0 && !error.errors.some((e) => e.field === 'Idempotency-Key')) {
          throw new InvalidInputError([...keyErrors, ...error.errors]);
        }
        throw error;
      }),
    );
  }
}

function headerErrors(header: string | undefined) {
  try {
    idempotencyKeyOf(header);
    return [];
  } catch (error) {
    return error instanceof InvalidInputError ? error.errors : [];
  }
}
