import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { InvalidTokenError, ServiceUnavailableError } from '../common/problem/problem.errors';
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
    if (!error && user) return user;
    throw failure(error ?? info);
  }
}

const TOKEN_ERRORS = new Set(['JsonWebTokenError', 'TokenExpiredError', 'NotBeforeError']);

/**
 * passport-jwt reports why a token failed as `info`: one of jsonwebtoken's errors, "No auth
 * token", or the key provider's own error. That last one means the identity provider's keys
 * could not be fetched: our outage, not the caller's bad token, and its text names our hosts.
 */
function failure(cause: unknown): Error {
  // Read by shape: errors from Node's own modules are not instances of every realm's Error.
  const { name, message } = (typeof cause === 'object' && cause !== null ? cause : {}) as { name?: string; message?: string };
  if (message === undefined) return new InvalidTokenError('The token was refused.');
  if (message === 'No auth token') return new InvalidTokenError('Send a bearer token: Authorization: Bearer <JWT>.');
  if (name === 'TokenExpiredError') return new InvalidTokenError('The token has expired.');
  if (name && TOKEN_ERRORS.has(name)) return new InvalidTokenError(`The token was refused: ${message}.`);
  return new ServiceUnavailableError('Tokens cannot be verified right now (the signing keys are unavailable); try again shortly.');
}
