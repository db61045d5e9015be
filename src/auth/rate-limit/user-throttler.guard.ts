import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerLimitDetail } from '@nestjs/throttler';
import type { AuthUser } from '../auth-user';
import { RateLimitedError } from '../../platform/problem/problem.errors';

/**
 * RATE_LIMIT_PER_MINUTE per user, across all endpoints (docs/configuration.md, docs/api.md#errors). It runs after the
 * bearer-token guard, so the caller is known; public endpoints (health, metrics, docs) have no
 * caller and are not counted. Headers follow the IETF RateLimit fields draft, without `X-`.
 */
@Injectable()
export class UserThrottlerGuard extends ThrottlerGuard {
  protected override headerPrefix = 'RateLimit';

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(!this.callerOf(context));
  }

  protected override getTracker(request: { user?: AuthUser }): Promise<string> {
    return Promise.resolve(request.user!.id);
  }

  /** One budget per user, whichever endpoint is called (the default would count per route). */
  protected override generateKey(_context: ExecutionContext, userId: string): string {
    return userId;
  }

  protected override throwThrottlingException(context: ExecutionContext, limit: ThrottlerLimitDetail): Promise<void> {
    const { res } = this.getRequestResponse(context);
    this.setResponseHeader(res, 'RateLimit-Limit', limit.limit);
    this.setResponseHeader(res, 'RateLimit-Remaining', 0);
    this.setResponseHeader(res, 'RateLimit-Reset', limit.timeToBlockExpire);
    return Promise.reject(new RateLimitedError(limit.limit, limit.timeToBlockExpire));
  }

  private callerOf(context: ExecutionContext): AuthUser | undefined {
    return context.switchToHttp().getRequest<{ user?: AuthUser }>().user;
  }
}
