import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, api, errorOf, reached, unwrap } from './client';
import type { MemberSession } from './caller';
import { queryKeys } from './query-keys';
import { session } from './session';

/**
 * Signing in as a member (docs/teams.md#signing-in): the API sets the HttpOnly session cookie, which
 * then authenticates every request of this tab; the console keeps only whom it names.
 */
async function holdCookieSession(client: QueryClient, member: MemberSession): Promise<void> {
  // Who the cookie names and what the role may do, before any page shows (as a key's sign-in does).
  const caller = await unwrap(api.GET('/user/me', { headers: {} }));
  client.setQueryData(queryKeys.session, member);
  client.setQueryData(queryKeys.caller('session'), caller);
  session.signInWithCookie();
}

/** POST /session with an email and a password; rejects with the API's refusal (401, 429 with its wait). */
export function usePasswordSignIn(): (credentials: { email: string; password: string }) => Promise<void> {
  const client = useQueryClient();
  return async (body) => holdCookieSession(client, await unwrap(api.POST('/session', { body })));
}

/** POST /invitations/{token}/accept: the password chosen, the member signed in. */
export function useAcceptInvitation(token: string): (body: { password: string; name?: string }) => Promise<void> {
  const client = useQueryClient();
  return async (body) =>
    holdCookieSession(
      client,
      await unwrap(api.POST('/invitations/{token}/accept', { params: { path: { token } }, body })),
    );
}

/**
 * At load, with no key in this tab: whether the browser holds a session cookie (GET /session; 401
 * means signed out). Any other failure is thrown for the page to offer a retry.
 */
export function useCookieSessionCheck() {
  const client = useQueryClient();
  const { mode } = session.get();
  return useQuery({
    queryKey: ['session-check'],
    queryFn: async () => {
      try {
        await holdCookieSession(client, await unwrap(api.GET('/session')));
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 401)) throw error;
        session.noSession();
      }
      return true;
    },
    enabled: mode === 'checking',
    retry: false,
    gcTime: 0,
  });
}

/** Signs out: a cookie session ends on the server first (DELETE /session), a key is simply forgotten. */
export async function signOut(): Promise<void> {
  // Ended or not (the session may have expired already), this tab is signed out.
  if (session.cookie()) await reached(api.DELETE('/session')).catch(() => undefined);
  session.signOut();
}

export interface SignInMethods {
  password: boolean;
  oidc: boolean;
  /** The provider's name for its button, when the API names it. */
  provider?: string;
}

const PASSWORD_ONLY: SignInMethods = { password: true, oidc: false };

/**
 * GET /session/methods, read with plain fetch rather than the typed client: the route is newer than
 * this console's OpenAPI document. An API without it (404) offers the password only; so does any
 * failure, since the page must still let the reader sign in.
 */
async function signInMethods(): Promise<SignInMethods> {
  const response = await reached(fetch(new URL('/session/methods', location.origin), { credentials: 'same-origin' }));
  if (response.status === 404) return PASSWORD_ONLY;
  if (!response.ok) throw await errorOf(response);
  const body = (await response.json()) as Partial<SignInMethods>;
  return {
    password: body.password !== false,
    oidc: body.oidc === true,
    provider: typeof body.provider === 'string' && body.provider ? body.provider : undefined,
  };
}

export function useSignInMethods() {
  return useQuery({ queryKey: queryKeys.signInMethods, queryFn: signInMethods, staleTime: Infinity, retry: false });
}
