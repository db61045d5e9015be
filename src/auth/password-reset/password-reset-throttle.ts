import { Injectable } from '@nestjs/common';
import { RateLimitCountersRepository } from '../rate-limit/rate-limit-counters.repository';
import { takeFromEach } from '../rate-limit/take-from-each';
import { FAILED_SIGN_INS_PER_CLIENT, FAILED_SIGN_INS_PER_EMAIL, WINDOW_MS } from '../sessions/sign-in-throttle';

/**
 * Reset requests counted in the shared rate-limit counters as sign-in failures are, with the same
 * allowances (10 per address, 50 per client address, in 15 minutes), but in counters of their own
 * and counting every request: each may send a mail, and it must not lock the member out of signing
 * in. Known and unknown addresses are counted alike (docs/teams.md#password-reset).
 */
@Injectable()
export class PasswordResetThrottle {
  constructor(private readonly counters: RateLimitCountersRepository) {}

  /** Takes a request of the address's and of the client's; false, taking none, once either has made its allowance. */
  async take(email: string, client: string): Promise<boolean> {
    const refusal = await takeFromEach(
      this.counters,
      [
        [`password-reset-email:${email.toLowerCase()}`, FAILED_SIGN_INS_PER_EMAIL],
        [`password-reset-client:${client}`, FAILED_SIGN_INS_PER_CLIENT],
      ],
      WINDOW_MS,
    );
    return refusal === undefined;
  }
}
