import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { AppConfig } from '../../platform/config/app-config';
import { StateConflictError } from '../../platform/problem/problem.errors';
import { newOpaqueToken } from '../opaque-token';
import type { MemberRole } from './member-role';
import { MembersRepository, type AlsoInTransaction, type Member } from './members.repository';

/** An invitation is valid this long (docs/teams.md#invitations). */
export const INVITATION_VALID_DAYS = 7;

/** Makes invitations and their links: for POST /user/members and for `npm run member` (member.cli.ts). */
@Injectable()
export class Invitations {
  constructor(
    private readonly members: MembersRepository,
    private readonly config: AppConfig,
  ) {}

  /** Stores the invitation (409 when the address is a member or invited already) and returns its one-time link. */
  async create(
    accountId: string,
    email: string,
    role: MemberRole,
    invitedBy: string,
    also: AlsoInTransaction,
  ): Promise<{ member: Member; link: string }> {
    const { token, hash } = newOpaqueToken();
    const member = await this.members.invite(
      { id: uuidv7(), accountId, email, role, invitedBy, invitationHash: hash },
      INVITATION_VALID_DAYS,
      also,
    );
    if (member === 'exists') throw new StateConflictError(`${email} is already a member of this account, or invited.`);
    return { member, link: `${this.config.deliverability.publicUrl}/console/invitation/${token}` };
  }
}
