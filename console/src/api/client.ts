import createClient from 'openapi-fetch';
import type { components, paths } from '../../generated/openapi';
import { session } from './session';

export type Schemas = components['schemas'];
export type Problem = Schemas['ProblemDetails'];

/**
 * The public API of this same origin, typed from the OpenAPI document the build generates. The
 * origin is spelled out: a Request outside a browser (the component tests') has no page to resolve against.
 * The session cookie goes with every request (same origin); a request with a key or JWT carries it
 * too, but Authorization wins (docs/teams.md#signing-in).
 */
export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });

api.use({
  onRequest({ request }) {
    // Sign-in sets its own header to try a credential before keeping it.
    if (!request.headers.has('Authorization')) {
      const authorization = authorizationHeader();
      if (authorization) request.headers.set('Authorization', authorization);
    }
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && refusedSession(request)) session.expire();
    return response;
  },
});

/** What a request sends as Authorization: the pasted key or JWT; nothing with the cookie, which is the credential then. */
export function authorizationHeader(): string | undefined {
  const token = session.token();
  return token ? `Bearer ${token}` : undefined;
}

/**
 * Whether a 401 refused the session this tab is signed in with (back to sign-in), rather than a
 * credential or a password being tried at sign-in.
 */
export function refusedSession(request: Request): boolean {
  const sent = request.headers.get('Authorization');
  return session.cookie() ? sent === null : sent !== null && sent === authorizationHeader();
}

/** An API answer other than 2xx, with its RFC 9457 problem when the body is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem | undefined,
  ) {
    super(problem?.detail ?? `The API answered ${status}.`);
  }

  /** 403: the credential lacks the scope; shown as not allowed rather than as a failure. */
  get notAllowed(): boolean {
    return this.status === 403;
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && 'detail' in body && 'status' in body;
}

/** The error for a non-2xx answer read without openapi-fetch (a download's bytes). */
export async function errorOf(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => undefined);
  return new ApiError(response.status, isProblem(body) ? body : undefined);
}

/**
 * No answer at all (offline, the server down, a proxy dropping the connection): fetch says only
 * "Failed to fetch", which reads as a bug; the reader is told what happened and what to do.
 */
export class NetworkError extends Error {
  constructor(readonly cause: unknown) {
    super('Could not reach Mailroom. Check your connection and try again.');
  }
}

/** A request's answer, or a NetworkError when none came. */
export async function reached<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (cause) {
    throw cause instanceof TypeError ? new NetworkError(cause) : cause;
  }
}

/** The data of a 2xx answer; anything else thrown as an ApiError that TanStack Query reports. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await reached(call);
  if (!response.ok) throw new ApiError(response.status, isProblem(error) ? error : undefined);
  return data as T;
}
