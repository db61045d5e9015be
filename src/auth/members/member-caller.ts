import type { AuthUser } from '../auth-user';
import type { Member } from './members.repository';

/**
 * A member as the caller of what it does before it has a session (accepting an invitation, signing
 * in), so that the audit log names it as the actor of its own entry, from the request's address.
 */
export function memberCaller(member: Member, clientAddress: string): AuthUser {
  return {
    id: member.accountId,
    member: { id: member.id, email: member.email, role: member.role, sessionId: '' },
    clientAddress,
  };
}
