import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError, api, reached, unwrap } from './client';
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

/** The queries of the signed-in identity itself, kept across an account switch (it sets them anew). */
const IDENTITY_KEYS = new Set<unknown>([queryKeys.session[0], 'caller', queryKeys.signInMethods[0]]);

/**
 * POST /session/account: the same person moves to its membership of another account, in a new
 * session (docs/teams.md#several-accounts). Every page's data was the other account's: reset, so
 * that nothing of it shows under the new account while the pages load again.
 */
export function useSwitchAccount(): (userId: string) => Promise<void> {
  const client = useQueryClient();
  return async (userId) => {
    const answer = await unwrap(api.POST('/session/account', { body: { userId } }));
    await holdCookieSession(client, answer);
    await client.resetQueries({ predicate: (query) => !IDENTITY_KEYS.has(query.queryKey[0]) });
  };
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

export type SignInMethods = Awaited<ReturnType<typeof signInMethods>>;

/** GET /session/methods: whether the OIDC provider is offered beside the password (docs/teams.md#the-console). */
async function signInMethods() {
  return unwrap(api.GET('/session/methods'));
}

export function useSignInMethods() {
  return useQuery({ queryKey: queryKeys.signInMethods, queryFn: signInMethods, staleTime: Infinity, retry: false });
}
