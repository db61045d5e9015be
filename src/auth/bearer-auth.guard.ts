import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { ExtractJwt } from 'passport-jwt';
import { clientAddressOfRequest, countedAddress } from '../platform/http/client-address';
import { FailureBudget } from './failure-budget';
import { AppConfig } from '../platform/config/app-config';
import { InvalidTokenError, RateLimitedError, ServiceUnavailableError } from '../platform/problem/problem.errors';
import { isApiKeyToken } from './api-keys/api-key-hasher';
import type { ApiKeyScope } from './api-keys/api-key-scope';
import { ApiKeyHolder, ApiKeys } from './api-keys/api-keys';
import type { AuthUser } from './auth-user';
import { MissingScopeError } from './missing-scope.error';
import { IS_PUBLIC } from '../platform/http/public.decorator';
import { ANY_SCOPE, MEMBER_ROLES_ONLY, REQUIRED_SCOPE } from './requires-scope.decorator';
import { ROLE_SCOPES, managesMembers } from './members/member-role';
import { sessionCookieOf } from './sessions/session-cookie';
import { CrossSiteRequestError, NoSessionError } from './sessions/session.errors';
import { SessionsService } from './sessions/sessions.service';

// The JWT strategy's own extractor, so that both ways agree on what the bearer token is.
const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();

// Refused API keys per client address, as on the SMTP submission port (docs/api.md#smtp-submission): each unknown
// key is a database look-up, so past these the address's keys are refused without one.
const BAD_KEYS_PER_WINDOW = 20;
const BAD_KEY_WINDOW_MS = 60_000;

/**
 * The global guard: every route needs a valid bearer token unless marked @Public(): a JWT (through
 * passport, docs/api.md#authentication), or an API key (`mr_…`, docs/api.md#smtp-submission), which reaches only the operations marked
 * with one of its scopes; without Authorization, a member's session cookie (docs/teams.md#signing-in),
 * which reaches what the member's role allows.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('jwt') {
  private readonly badKeys = new FailureBudget({ limit: BAD_KEYS_PER_WINDOW, windowMs: BAD_KEY_WINDOW_MS });
  /** PUBLIC_URL's origin: the only Origin a cookie-authenticated change may carry. */
  private readonly publicOrigin: string;

  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeys,
    private readonly config: AppConfig,
    private readonly sessions: SessionsService,
  ) {
    super();
    this.publicOrigin = new URL(config.deliverability.publicUrl).origin;
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<Request & { user?: AuthUser }>();
    const token = bearerToken(request);
    const clientAddress = clientAddressOfRequest(request, this.config.trustedProxies);
    const cookie = token === null && request.headers.authorization === undefined ? sessionCookieOf(request) : undefined;
    if (cookie !== undefined) return this.memberMay(cookie, request, targets, clientAddress);
    if (token === null || !isApiKeyToken(token)) {
      const allowed = (await super.canActivate(context)) as boolean;
      // passport set the JWT's user (JwtStrategy); the address is the request's, known here.
      if (request.user) request.user.clientAddress = clientAddress;
      return allowed;
    }
    const holder = await this.keyHolder(token, request, clientAddress);
    request.user = {
      id: holder.userId,
      apiKey: { id: holder.keyId, prefix: holder.prefix, scopes: holder.scopes },
      clientAddress,
    };
    const scope = this.reflector.getAllAndOverride<ApiKeyScope | typeof ANY_SCOPE | undefined>(REQUIRED_SCOPE, targets);
    if (!scope)
      throw new MissingScopeError(
        `${request.method} ${routePattern(request) ?? request.path} is not open to API keys; use a JWT.`,
      );
    if (scope !== ANY_SCOPE && !holder.scopes.includes(scope)) {
      throw new MissingScopeError(
        `This API key lacks the scope ${scope}, which ${request.method} ${routePattern(request) ?? request.path} needs; its scopes: ${holder.scopes.join(', ')}.`,
      );
    }
    return true;
  }

  /**
   * A request with the session cookie and no Authorization is the member's (docs/teams.md#signing-in),
   * looked up in the database every time, so that a sign-out or a removal holds everywhere at once.
   * A change must come from our own origin (a form on another site sends the cookie too). The
   * role's scopes limit it as an API key's would, and what is for owners and admins alone is theirs;
   * owners and admins may do everything.
   */
  private async memberMay(
    cookie: string,
    request: Request & { user?: AuthUser },
    targets: TargetList,
    clientAddress: string,
  ): Promise<boolean> {
    const user = await this.sessions.authenticate(cookie, clientAddress);
    if (!user?.member) throw new NoSessionError('The session has ended, or never began: sign in again.');
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.headers.origin !== this.publicOrigin) {
      throw new CrossSiteRequestError(
        `A change made with the session cookie must carry Origin: ${this.publicOrigin} (cross-site request forgery).`,
      );
    }
    request.user = user;
    const { role } = user.member;
    if (managesMembers(role)) return true;
    if (this.reflector.getAllAndOverride<boolean>(MEMBER_ROLES_ONLY, targets)) {
      throw new MissingScopeError(
        `The role ${role} may not ${request.method} ${routePattern(request) ?? request.path}; owners and admins may.`,
      );
    }
    const scope = this.reflector.getAllAndOverride<ApiKeyScope | typeof ANY_SCOPE | undefined>(REQUIRED_SCOPE, targets);
    if (scope === ANY_SCOPE || (scope && ROLE_SCOPES[role].includes(scope))) return true;
    throw new MissingScopeError(
      `The role ${role} may not ${request.method} ${routePattern(request) ?? request.path}; ask an owner or admin.`,
    );
  }

  /**
   * The key's holder, unless the client's address has used up its refused keys: then every key
   * from it, a valid one too, is refused (429) until its window ends, as the submission port
   * refuses the address outright, since telling a valid key from an unknown one takes the very
   * look-up the budget saves. JWTs, checked without the database, still work from that address.
   * The address is the client's, not a reverse proxy's (TRUST_PROXY), and an IPv6 client's /64.
   */
  private async keyHolder(token: string, request: Request, clientAddress: string): Promise<ApiKeyHolder> {
    const client = countedAddress(clientAddress);
    const refusal = this.badKeys.refusal(client);
    if (refusal) {
      const { limit, retryAfterSeconds } = refusal;
      request.res!.setHeader('RateLimit-Limit', limit);
      request.res!.setHeader('RateLimit-Remaining', 0);
      request.res!.setHeader('RateLimit-Reset', retryAfterSeconds);
      throw new RateLimitedError(
        limit,
        retryAfterSeconds,
        `More than ${limit} refused API keys from this address in a minute; retry after ${retryAfterSeconds} s.`,
      );
    }
    const holder = await this.apiKeys.authenticate(token);
    if (holder) return holder;
    this.badKeys.fail(client);
    throw new InvalidTokenError('The API key was refused: it is not one of ours, or it has been deleted.');
  }

  override handleRequest<TUser>(error: unknown, user: TUser | false, info: unknown): TUser {
    if (error instanceof InvalidTokenError) throw error;
    if (!error && user) return user;
    throw failure(error ?? info);
  }
}

type TargetList = Parameters<Reflector['getAllAndOverride']>[1];

const TOKEN_ERRORS = new Set(['JsonWebTokenError', 'TokenExpiredError', 'NotBeforeError']);

/**
 * passport-jwt reports why a token failed as `info`: one of jsonwebtoken's errors, "No auth
 * token", or the key provider's own error. That last one means the identity provider's keys
 * could not be fetched: our outage, not the caller's bad token, and its text names our hosts.
 */
function failure(cause: unknown): Error {
  // Read by shape: errors from Node's own modules are not instances of every realm's Error.
  const { name, message } = (typeof cause === 'object' && cause !== null ? cause : {}) as {
    name?: string;
    message?: string;
  };
  if (message === undefined) return new InvalidTokenError('The token was refused.');
  if (message === 'No auth token')
    return new InvalidTokenError('Send a bearer token: Authorization: Bearer <JWT or API key>.');
  if (name === 'TokenExpiredError') return new InvalidTokenError('The token has expired.');
  if (name && TOKEN_ERRORS.has(name)) return new InvalidTokenError(`The token was refused: ${message}.`);
  return new ServiceUnavailableError(
    'Tokens cannot be verified right now (the signing keys are unavailable); try again shortly.',
  );
}

/** The pattern of the route that matched (`/messages/:id`); express types `request.route` as any. */
function routePattern(request: Request): string | undefined {
  return (request.route as { path?: string } | undefined)?.path;
}
