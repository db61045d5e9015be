import { API_KEY_SCOPES, type ApiKeyScope } from '../api-keys/api-key-scope';

/** A member's role in an account (docs/teams.md#members-and-roles), most powerful first. */
export const MEMBER_ROLES = ['owner', 'admin', 'developer', 'viewer'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export const MEMBER_STATUSES = ['invited', 'active'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** What each role may do, in the API keys' scopes: a member is limited as a key with these would be. */
export const ROLE_SCOPES: Record<MemberRole, readonly ApiKeyScope[]> = {
  owner: API_KEY_SCOPES,
  admin: API_KEY_SCOPES,
  developer: ['send', 'read', 'keys'],
  viewer: ['read'],
};

/** Owners and admins may do everything, operations closed to API keys (member management) too. */
export function managesMembers(role: MemberRole): boolean {
  return role === 'owner' || role === 'admin';
}
