import { Injectable } from '@nestjs/common';
import { RateLimitedError } from '../../platform/problem/problem.errors';
import { RateLimitCountersRepository } from '../rate-limit/rate-limit-counters.repository';
import { FAILED_SIGN_INS_PER_CLIENT, FAILED_SIGN_INS_PER_EMAIL } from '../sessions/sign-in-throttle';

const WINDOW_MS = 15 * 60_000;

/**
 * Reset requests counted in the shared rate-limit counters as sign-in failures are, with the same
 * allowances (10 per address, 50 per client address, in 15 minutes), but in counters of their own
 * and counting every request: each may send a mail, and it must not lock the member out of signing
 * in. Known and unknown addresses are counted alike, so a 429 tells nothing about who is a member
 * (docs/teams.md#password-reset).
 */
@Injectable()
export class PasswordResetThrottle {
  constructor(private readonly counters: RateLimitCountersRepository) {}

  /** Counts one request; throws 429 once the address or the client has made its allowance. */
  async take(email: string, client: string): Promise<void> {
    const checks: [string, number][] = [
      [`password-reset-email:${email.toLowerCase()}`, FAILED_SIGN_INS_PER_EMAIL],
      [`password-reset-client:${client}`, FAILED_SIGN_INS_PER_CLIENT],
    ];
    for (const [counter, limit] of checks) {
      const window = await this.counters.current(counter);
      if (window && window.hits >= limit) {
        const retryAfterSeconds = Math.max(1, Math.ceil(window.msLeft / 1000));
        throw new RateLimitedError(
          limit,
          retryAfterSeconds,
          `Too many password resets; retry after ${retryAfterSeconds} s.`,
        );
      }
    }
    await this.counters.add(
      checks.map(([counter]) => [counter, 1]),
      WINDOW_MS,
    );
  }
}
