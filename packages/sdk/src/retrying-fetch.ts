import { retryAfterSeconds } from './errors.js';

export interface RetryOptions {
  /** Further attempts after the first; 0 turns retrying off. */
  retries: number;
  /** The longest wait before one retry; a 429 asking for longer is handed to the caller at once. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { retries: 2, maxDelayMs: 60_000 };

/** Methods a repeat cannot make do twice (RFC 9110 §9.2.2). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Answers of a server or a proxy in trouble, after which the request may not have been carried out. */
const TRANSIENT = new Set([500, 502, 503, 504]);
const FIRST_BACKOFF_MS = 500;

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

/**
 * `base` with retries, as openapi-fetch's `fetch`: a 429 is repeated after its `Retry-After`
 * whatever the method (the server refused it before doing anything); no answer at all or a 5xx is
 * repeated only when a repeat cannot act twice: an idempotent method, or a request carrying an
 * `Idempotency-Key`, which the server answers from its first outcome (and a 409 to such a request,
 * which says that outcome is not known yet).
 */
export function retryingFetch(base: Fetch, options: RetryOptions, sleep = wait): Fetch {
  return async (request, init) => {
    const keyed = request.headers.has('Idempotency-Key');
    const repeatable = IDEMPOTENT.has(request.method) || keyed;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= options.retries;
      let response: Response;
      try {
        // A Request's body can be read once: each attempt sends a copy.
        response = await base(last ? request : request.clone(), init);
      } catch (error) {
        if (last || !repeatable || request.signal.aborted) throw error;
        await sleep(backoff(attempt), request.signal);
        continue;
      }
      const delay = last ? undefined : retryDelay(response, attempt, repeatable, keyed, options.maxDelayMs);
      if (delay === undefined) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}

/** How long to wait before repeating after `response`, or undefined to hand it to the caller. */
function retryDelay(
  response: Response,
  attempt: number,
  repeatable: boolean,
  keyed: boolean,
  maxDelayMs: number,
): number | undefined {
  // A 409 to a request with an Idempotency-Key: the first request with that key is still being
  // handled (a retry after a lost answer can overtake it); once it is done, a repeat gets its answer.
  const retried =
    response.status === 429 || (TRANSIENT.has(response.status) && repeatable) || (response.status === 409 && keyed);
  if (!retried) return undefined;
  const asked = retryAfterSeconds(response.headers.get('Retry-After'));
  const delay = asked === undefined ? backoff(attempt) : asked * 1000;
  return delay <= maxDelayMs ? delay : undefined;
}

/** Exponential, with full jitter so that many clients refused at once do not return at once. */
function backoff(attempt: number): number {
  return Math.round(FIRST_BACKOFF_MS * 2 ** attempt * (0.5 + Math.random() / 2));
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
  });
}
