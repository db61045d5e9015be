import { Injectable } from '@nestjs/common';
import { RateLimitCountersRepository } from '../rate-limit/rate-limit-counters.repository';
import { takeFromEach, type WindowRefusal } from '../rate-limit/take-from-each';

export const WINDOW_MS = 15 * 60_000;
/** Failed sign-ins per address and per client address in the window (docs/teams.md#signing-in). */
export const FAILED_SIGN_INS_PER_EMAIL = 10;
export const FAILED_SIGN_INS_PER_CLIENT = 50;

/**
 * Failed sign-ins counted in the shared rate-limit counters, so that every API process refuses
 * alike (a guesser spread over N processes gets no N times the tries): one fixed window per
 * address and per client, refusing every sign-in once it is full. Each try is taken from both
 * windows before its password is checked, and given back if it succeeds: checked first and counted
 * after, a burst of guesses sent at once would all be checked before the first had failed.
 */
@Injectable()
export class SignInThrottle {
  constructor(private readonly counters: RateLimitCountersRepository) {}

  /** Takes a try of the address's and of the client's; a refusal, taking none, when either has none left. */
  take(email: string, client: string): Promise<WindowRefusal | undefined> {
    return takeFromEach(
      this.counters,
      [
        [emailCounter(email), FAILED_SIGN_INS_PER_EMAIL],
        [clientCounter(client), FAILED_SIGN_INS_PER_CLIENT],
      ],
      WINDOW_MS,
    );
  }

  /** A sign-in that succeeded gives its try back: only failures count. */
  async succeeded(email: string, client: string): Promise<void> {
    await this.counters.refund([emailCounter(email), clientCounter(client)]);
  }
}

// Prefixes no throttler of the request counters uses (they are `<throttler>:<userId>`).
const emailCounter = (email: string) => `sign-in-email:${email.toLowerCase()}`;
const clientCounter = (client: string) => `sign-in-client:${client}`;
