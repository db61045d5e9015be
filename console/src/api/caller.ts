import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api, unwrap, type Schemas } from './client';
import { queryKeys } from './query-keys';
import { session } from './session';

export type Scope = Schemas['CallerResponse']['scopes'][number];
export type Caller = Schemas['CallerResponse'];

export function useSession() {
  return useSyncExternalStore(session.subscribe, session.get);
}

/** Who the signed-in credential is and what it may do (GET /user/me). */
export function useCaller() {
  const { token } = useSession();
  return useQuery({
    queryKey: queryKeys.caller(token ?? ''),
    queryFn: () => unwrap(api.GET('/user/me')),
    enabled: token !== null,
    staleTime: Infinity,
  });
}

/** Tries a credential before keeping it: the caller it names, or the API's refusal. */
function identify(token: string): Promise<Caller> {
  return unwrap(api.GET('/user/me', { headers: { Authorization: `Bearer ${token}` } }));
}

/**
 * Signs in with `token` once the API has said whom it names (rejects with the API's refusal
 * otherwise). The answer becomes the caller at once, so the first page already shows what this
 * credential may not do, instead of controls that are enabled until GET /user/me answers again.
 */
export function useSignIn(): (token: string) => Promise<void> {
  const client = useQueryClient();
  return async (token) => {
    client.setQueryData(queryKeys.caller(token), await identify(token));
    session.signIn(token);
  };
}

export interface Permission {
  allowed: boolean;
  /** Why not, in words for the disabled control. */
  reason?: string;
}

/** Whether the signed-in credential has `scope`; unknown until the caller has loaded counts as allowed. */
export function usePermission(scope: Scope): Permission {
  const caller = useCaller().data;
  if (!caller || caller.scopes.includes(scope)) return { allowed: true };
  return {
    allowed: false,
    reason: `Not allowed: this API key lacks the ${scope} scope (it has ${caller.scopes.join(', ')}).`,
  };
}
