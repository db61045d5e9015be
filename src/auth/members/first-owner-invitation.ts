import { Injectable } from '@nestjs/common';
import { StateConflictError } from '../../platform/problem/problem.errors';
import { Invitations } from './invitations';
import { MembersRepository } from './members.repository';

/** The start-up banner's invitation: to this address, as `invitedBy`, the account's first owner. */
export const FIRST_OWNER_INVITED_BY = 'start-up banner';
export const FIRST_OWNER_EMAIL = (accountId: string) => `${accountId}@example.com`;

/** The first owner's invitation, as the banner shows it. */
export interface FirstOwnerLink {
  account: string;
  email: string;
  link: string;
}

/**
 * The invitation `npm start` prints while an account has no active member (docs/teams.md#the-first-owner).
 * Each start makes a new link and withdraws the one the previous start printed (a link is shown
 * once, and a terminal's scrollback is no place to keep one alive): the latest start's link works.
 */
@Injectable()
export class FirstOwnerInvitation {
  constructor(
    private readonly members: MembersRepository,
    private readonly invitations: Invitations,
  ) {}

  /** A new link while `accountId` has no active member; undefined once it has one. */
  async linkWhileNoMember(accountId: string): Promise<FirstOwnerLink | undefined> {
    if (await this.members.hasActiveMember(accountId)) return undefined;
    const email = FIRST_OWNER_EMAIL(accountId);
    await this.members.withdrawInvitation(accountId, email, FIRST_OWNER_INVITED_BY);
    try {
      // Made by the operator who runs the process, no caller of the API: like `npm run member`'s,
      // the audit log shows this member from its joining on.
      const { link } = await this.invitations.create(accountId, email, 'owner', FIRST_OWNER_INVITED_BY, () =>
        Promise.resolve(),
      );
      return { account: accountId, email, link };
    } catch (error) {
      // Someone else (`npm run member`, a JWT) invited that address: that invitation stands.
      if (error instanceof StateConflictError) return undefined;
      throw error;
    }
  }
}
