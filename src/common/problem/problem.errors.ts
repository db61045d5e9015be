import type { FieldError } from './problem-details';

/**
 * Errors that services throw in the language of the domain; the problem filter alone decides
 * what HTTP status and body each one becomes.
 */
export class InvalidInputError extends Error {
  constructor(readonly errors: FieldError[]) {
    super(errors.length === 1 ? 'The request has 1 invalid field.' : `The request has ${errors.length} invalid fields.`);
  }
}

export class NotFoundError extends Error {
  constructor(what: string) {
    super(`${what} does not exist.`);
  }
}

export class PayloadTooLargeError extends Error {}

export class InvalidTokenError extends Error {}

/** The caller spent its requests of this minute (SPEC §1 RATE_LIMIT_PER_MINUTE). */
export class RateLimitedError extends Error {
  constructor(limit: number, readonly retryAfterSeconds: number) {
    super(`More than ${limit} requests in a minute; retry after ${retryAfterSeconds} s.`);
  }
}

/** Another request with the same Idempotency-Key is still being processed. */
export class IdempotencyConflictError extends Error {}

/** An Idempotency-Key was used before with a different body. */
export class IdempotencyMismatchError extends Error {}

/** A dependency (the database, the identity provider) is not answering; not the caller's fault. */
export class ServiceUnavailableError extends Error {}
