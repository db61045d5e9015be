import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { InvalidTokenError } from '../common/problem/problem.errors';
import { IS_PUBLIC } from './public.decorator';

/** The global guard: every route needs a valid bearer token unless marked @Public(). */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    return isPublic || super.canActivate(context);
  }

  override handleRequest<TUser>(error: unknown, user: TUser | false, info: unknown): TUser {
    if (error instanceof InvalidTokenError) throw error;
    if (error || !user) throw new InvalidTokenError(describeFailure(info));
    return user;
  }
}

/** passport-jwt reports why a token failed as `info`: jsonwebtoken's errors, or "No auth token". */
function describeFailure(info: unknown): string {
  const message = info instanceof Error ? info.message : '';
  if (message === 'No auth token') return 'Send a bearer token: Authorization: Bearer <JWT>.';
  if (message === 'jwt expired') return 'The token has expired.';
  if (message) return `The token was refused: ${message}.`;
  return 'The token was refused.';
}
