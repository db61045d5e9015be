import type { MemberResponse } from './dto/member.dto';
import type { Member } from './members.repository';

/** A member as every answer shows it. */
export function mapMember(member: Member): MemberResponse {
  return {
    id: member.id,
    email: member.email,
    name: member.name,
    role: member.role,
    status: member.status,
    invitedAt: member.invitedAt.toISOString(),
    invitedBy: member.invitedBy,
    joinedAt: member.joinedAt?.toISOString() ?? null,
    lastSignInAt: member.lastSignInAt?.toISOString() ?? null,
  };
}
