import { Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { RateLimitedError } from '../../platform/problem/problem.errors';
import { AppConfig } from '../../platform/config/app-config';
import { counterKey, PostgresThrottlerStorage } from './postgres-throttler.storage';
import { RATE_LIMIT_THROTTLER, RATE_LIMIT_WINDOW_MS } from './rate-limit.window';

/**
 * Rate limiting counts messages, not requests: a batch of N spends N of the caller's budget of
 * the minute. The guard has counted the request as one before the body was read; once the batch
 * has passed every check and is about to be stored (no replay), it spends the other N - 1 here,
 * all or none: a batch that does not fit in what is left is refused whole (429), and a refused
 * batch or a replay has spent only the one request, like any other request.
 */
@Injectable()
export class MessageBudget {
  constructor(
    private readonly counters: PostgresThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  /** Spends `messages` of the user's budget, the request's own hit included; sets the RateLimit-* headers to what is left. */
  async spend(userId: string, messages: number, response: Response): Promise<void> {
    if (messages <= 1) return;
    const { spent, remaining, secondsLeft, limit } = await this.charge(userId, messages - 1);
    response.setHeader('RateLimit-Remaining', remaining);
    response.setHeader('RateLimit-Reset', secondsLeft);
    if (spent) return;
    response.setHeader('Retry-After', secondsLeft);
    throw new RateLimitedError(
      limit,
      secondsLeft,
      `A batch of ${messages} messages counts as ${messages} requests; ${remaining + 1} were left of the ${limit} a minute. Send fewer, or retry after ${secondsLeft} s.`,
    );
  }

  /** For a way in that no request guard has counted (SMTP submission): one message, one request of the budget. */
  async spendOne(userId: string): Promise<void> {
    const { spent, secondsLeft, limit } = await this.charge(userId, 1);
    if (!spent) throw new RateLimitedError(limit, secondsLeft);
  }

  /** Adds `hits` to the user's count of the minute, all or none: none when they would pass the limit. */
  private async charge(
    userId: string,
    hits: number,
  ): Promise<{ spent: boolean; remaining: number; secondsLeft: number; limit: number }> {
    const limit = this.config.limits.requestsPerMinute;
    // One statement, so that concurrent batches of one user cannot both take the last of the budget.
    // Should the guard's window have ended in between, the new one starts with the N - 1 alone.
    const counted = await this.counters.countNow(
      counterKey(RATE_LIMIT_THROTTLER, userId),
      hits,
      RATE_LIMIT_WINDOW_MS,
      limit,
    );
    return {
      spent: counted.spent,
      remaining: Math.max(0, limit - counted.hits),
      secondsLeft: Math.ceil(counted.msLeft / 1000),
      limit,
    };
  }
}
