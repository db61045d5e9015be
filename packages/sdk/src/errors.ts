import type { components } from './generated/openapi.js';
import type { Shape } from './request.js';

/** An RFC 9457 problem as the API answers every error (docs/api.md#errors). */
export interface Problem extends Shape<components['schemas']['ProblemDetails']> {}
/** One failing field of a 400: its path in the body (`to[0]`) and what is wrong with it. */
export interface FieldError extends Shape<components['schemas']['FieldError']> {}

/**
 * Any answer other than 2xx, or no answer at all (`status` 0): thrown, as `postmark` does, so that
 * a caller's `await` either has the data or lands in a catch that can branch on `status`, read
 * which fields failed in `errors`, and quote `requestId` to whoever runs the server.
 */
export class MailroomError extends Error {
  override readonly name = 'MailroomError';
  /** The HTTP status; 0 when no answer came (the network, a timeout, an abort). */
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  /** Every failing field of a 400, as the server lists them; empty otherwise. */
  readonly errors: FieldError[];
  /** The request's id (the problem's `requestId`, else the `X-Request-Id` header): the key to the server's logs. */
  readonly requestId: string | undefined;
  /** Seconds the server asked to wait (`Retry-After`), when it did. */
  readonly retryAfter: number | undefined;
  /** The problem body as it came, when the body was one. */
  readonly problem: Problem | undefined;

  constructor(init: {
    status: number;
    title: string;
    detail: string;
    errors?: FieldError[];
    requestId?: string;
    retryAfter?: number;
    problem?: Problem;
    cause?: unknown;
  }) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.retryAfter = init.retryAfter;
    this.problem = init.problem;
  }

  /** The error for a non-2xx answer whose body has been read (`body`: the parsed JSON, or the text). */
  static fromResponse(response: Response, body: unknown): MailroomError {
    const problem = isProblem(body) ? body : undefined;
    return new MailroomError({
      status: response.status,
      title: problem?.title ?? (response.statusText || 'Error'),
      detail: problem?.detail ?? (typeof body === 'string' && body ? body : `The API answered ${response.status}.`),
      errors: problem?.errors,
      requestId: problem?.requestId ?? response.headers.get('X-Request-Id') ?? undefined,
      retryAfter: retryAfterSeconds(response.headers.get('Retry-After')),
      problem,
    });
  }

  /** The error for a request that got no answer. */
  static fromNetwork(cause: unknown): MailroomError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new MailroomError({
      status: 0,
      title: 'Network error',
      detail: `No answer from Mailroom: ${reason}`,
      cause,
    });
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && 'status' in body && 'title' in body && 'detail' in body;
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
