import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { api, unwrap, type Schemas } from './client';
import { queryKeys } from './query-keys';
import { session } from './session';

export type Scope = Schemas['CallerResponse']['scopes'][number];
export type Caller = Schemas['CallerResponse'];
export type MemberSession = Schemas['SessionResponse'];
export type Role = MemberSession['role'];

export function useSession() {
  return useSyncExternalStore(session.subscribe, session.get);
}

/** What the caller's query is kept under: the key or JWT, or the cookie session (one per tab). */
export function credentialKey(): string {
  return session.token() ?? 'session';
}

/** Who the signed-in credential is and what it may do (GET /user/me). */
export function useCaller() {
  const { mode } = useSession();
  return useQuery({
    queryKey: queryKeys.caller(credentialKey()),
    queryFn: () => unwrap(api.GET('/user/me')),
    enabled: mode === 'key' || mode === 'cookie',
    staleTime: Infinity,
  });
}

/** The signed-in member, its account and role (GET /session); nothing with a key or JWT. */
export function useMemberSession() {
  const { mode } = useSession();
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: () => unwrap(api.GET('/session')),
    enabled: mode === 'cookie',
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

const ALLOWED: Permission = { allowed: true };

/** Whether the signed-in credential has `scope`; unknown until the caller has loaded counts as allowed. */
export function usePermission(scope: Scope): Permission {
  const caller = useCaller().data;
  const role = useMemberSession().data?.role;
  if (!caller || caller.scopes.includes(scope)) return ALLOWED;
  if (caller.credential === 'session')
    return { allowed: false, reason: `Not allowed: your role, ${role ?? 'yours'}, does not include this.` };
  return {
    allowed: false,
    reason: `Not allowed: this API key lacks the ${scope} scope (it has ${caller.scopes.join(', ')}).`,
  };
}

/** Whether the role may manage members and read the audit log: owners and admins (docs/teams.md#members-and-roles). */
export const managesMembers = (role: Role): boolean => role === 'owner' || role === 'admin';

/**
 * Member management: owners and admins, and a JWT, which counts as an owner (its holder has the
 * signing key); never an API key (docs/teams.md#members-and-roles).
 */
export function useMembersPermission(): Permission {
  const caller = useCaller().data;
  const role = useMemberSession().data?.role;
  if (!caller || caller.credential === 'jwt') return ALLOWED;
  if (caller.credential === 'api-key')
    return { allowed: false, reason: 'Not allowed: API keys never manage members; sign in as an owner or admin.' };
  if (!role || managesMembers(role)) return ALLOWED;
  return { allowed: false, reason: `Not allowed: your role, ${role}, does not manage members; ask an owner or admin.` };
}

/** The audit log: owners and admins, and a JWT; never an API key (docs/teams.md#audit-log). */
export function useAuditLogPermission(): Permission {
  const caller = useCaller().data;
  const role = useMemberSession().data?.role;
  if (!caller || caller.credential === 'jwt') return ALLOWED;
  if (caller.credential === 'api-key')
    return { allowed: false, reason: 'Not allowed: API keys never read the audit log; sign in as an owner or admin.' };
  if (!role || managesMembers(role)) return ALLOWED;
  return {
    allowed: false,
    reason: `Not allowed: your role, ${role}, does not read the audit log; ask an owner or admin.`,
  };
}
