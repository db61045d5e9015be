import { Injectable } from '@nestjs/common';
import { RateLimitCountersRepository } from '../rate-limit/rate-limit-counters.repository';

const WINDOW_MS = 15 * 60_000;
/** Failed sign-ins per address and per client address in the window (docs/teams.md#signing-in). */
export const FAILED_SIGN_INS_PER_EMAIL = 10;
export const FAILED_SIGN_INS_PER_CLIENT = 50;

/** Where a refused sign-in stands: refused for `retryAfterSeconds` more. */
export interface SignInRefusal {
  limit: number;
  retryAfterSeconds: number;
}

/**
 * Failed sign-ins counted in the shared rate-limit counters, so that every API process refuses
 * alike (a guesser spread over N processes gets no N times the tries): one fixed window per
 * address and per client, begun at the first failure, refusing every sign-in once it is full.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly counters: RateLimitCountersRepository) {}

  /** Whether the address or the client has used up its failures, and for how long. */
  async refusal(email: string, client: string): Promise<SignInRefusal | undefined> {
    const checks: [string, number][] = [
      [emailCounter(email), FAILED_SIGN_INS_PER_EMAIL],
      [clientCounter(client), FAILED_SIGN_INS_PER_CLIENT],
    ];
    for (const [counter, limit] of checks) {
      const window = await this.counters.current(counter);
      if (window && window.hits >= limit) {
        return { limit, retryAfterSeconds: Math.max(1, Math.ceil(window.msLeft / 1000)) };
      }
    }
    return undefined;
  }

  async fail(email: string, client: string): Promise<void> {
    await this.counters.add(
      [
        [emailCounter(email), 1],
        [clientCounter(client), 1],
      ],
      WINDOW_MS,
    );
  }
}

// Prefixes no throttler of the request counters uses (they are `<throttler>:<userId>`).
const emailCounter = (email: string) => `sign-in-email:${email.toLowerCase()}`;
const clientCounter = (client: string) => `sign-in-client:${client}`;
