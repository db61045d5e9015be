import type { FieldError } from './problem-details';
import { RETRY_AFTER_SECONDS } from './problem-details';

/** What an error becomes on the wire: the body's status, type, detail and errors, and any headers. */
export interface Problem {
  status: number;
  type: string;
  detail: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
}

/**
 * The one base of the errors that services throw in the language of the domain: each names its
 * own HTTP status and problem type, so the problem filter maps every one of them alike.
 */
export abstract class ProblemError extends Error {
  abstract readonly status: number;
  readonly type: string = 'about:blank';
  /** Field errors, for the 400s that list them. */
  readonly errors?: FieldError[];
  /** Headers the answer must carry (Retry-After, WWW-Authenticate). */
  readonly headers?: Record<string, string>;

  get problem(): Problem {
    const { status, type, message: detail, errors, headers } = this;
    return { status, type, detail, ...(errors && { errors }), ...(headers && { headers }) };
  }
}

export class InvalidInputError extends ProblemError {
  readonly status = 400;

  constructor(override readonly errors: FieldError[]) {
    super(
      errors.length === 1 ? 'The request has 1 invalid field.' : `The request has ${errors.length} invalid fields.`,
    );
  }
}

/** A body that cannot be read at all (not JSON, a broken multipart), so no field can be named. */
export class MalformedBodyError extends ProblemError {
  readonly status = 400;
}

export class NotFoundError extends ProblemError {
  readonly status = 404;

  constructor(what: string) {
    super(`${what} does not exist.`);
  }
}

export class PayloadTooLargeError extends ProblemError {
  readonly status = 413;
}

/** The body did not arrive within the time a body is given (BODY_READ_TIMEOUT_MS). */
export class RequestTimeoutError extends ProblemError {
  readonly status = 408;
}

/** The body is not of the media type the operation takes. */
export class UnsupportedMediaTypeError extends ProblemError {
  readonly status = 415;
}

export class InvalidTokenError extends ProblemError {
  readonly status = 401;

  override readonly headers = { 'WWW-Authenticate': 'Bearer error="invalid_token"' };
}

/** The caller spent its requests of this minute (docs/configuration.md RATE_LIMIT_PER_MINUTE). */
export class RateLimitedError extends ProblemError {
  readonly status = 429;

  override readonly headers: Record<string, string>;

  constructor(
    limit: number,
    retryAfterSeconds: number,
    detail = `More than ${limit} requests in a minute; retry after ${retryAfterSeconds} s.`,
  ) {
    super(detail);
    // The throttler has set the same header already; carried here so that the error tells the whole answer.
    this.headers = { 'Retry-After': String(retryAfterSeconds) };
  }
}

/** Another request with the same Idempotency-Key is still being processed. */
export class IdempotencyConflictError extends ProblemError {
  readonly status = 409;
}

/** The resource is in a state that does not allow the request (a message past the point of canceling). */
export class StateConflictError extends ProblemError {
  readonly status = 409;
}

/** An Idempotency-Key was used before with a different body. */
export class IdempotencyMismatchError extends ProblemError {
  readonly status = 422;
}

/** A dependency (the database, the identity provider) is not answering; not the caller's fault. */
export class ServiceUnavailableError extends ProblemError {
  readonly status = 503;

  override readonly headers = { 'Retry-After': String(RETRY_AFTER_SECONDS) };
}
