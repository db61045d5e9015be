import { Injectable } from '@nestjs/common';
import { AuditLog } from '../audit/audit-log';
import { memberCaller } from '../members/member-caller';
import { ACCOUNTS_PER_ADDRESS, MembersRepository, type Member } from '../members/members.repository';
import type { StartedSession } from '../sessions/sessions.service';
import { SessionsService } from '../sessions/sessions.service';
import type { OidcRefusal } from './oidc-pages';
import { OidcExchangeError, OidcProviderClient, type OidcFlow } from './oidc-provider-client';

/** How a callback ended: a session, or why not. */
export type OidcOutcome = { session: StartedSession } | { refused: OidcRefusal };

/**
 * Turns a provider's verified answer into a member's session (docs/teams.md#signing-in-with-oidc):
 * the address of the ID token's `email`, when `email_verified`, accepts its pending invitations and
 * signs in to its first active membership.
 */
@Injectable()
export class OidcSignIn {
  constructor(
    private readonly provider: OidcProviderClient,
    private readonly members: MembersRepository,
    private readonly sessions: SessionsService,
    private readonly audit: AuditLog,
  ) {}

  async finish(callbackQuery: string, flow: OidcFlow, clientAddress: string): Promise<OidcOutcome> {
    let identity;
    try {
      identity = await this.provider.finish(callbackQuery, flow);
    } catch (error) {
      // A forged, replayed or expired answer names no address the service may believe.
      if (error instanceof OidcExchangeError) return { refused: 'failed' };
      throw error;
    }
    const email = identity.email;
    if (!email) return { refused: 'no invitation' };
    if (!identity.emailVerified) {
      await this.recordFailure(email, clientAddress, 'email_not_verified');
      return { refused: 'unverified' };
    }
    await this.members.acceptByAddress(email, (manager, m) =>
      this.audit.record(manager, {
        by: memberCaller(m, clientAddress),
        action: 'member.joined',
        target: { type: 'member', id: m.id },
        detail: { email: m.email, role: m.role, method: 'oidc' },
      }),
    );
    const member = (await this.members.byAddress(email, ACCOUNTS_PER_ADDRESS)).find((m) => m.status === 'active');
    if (!member) {
      // An invitation that expired is the only kind of member left here; its account is told.
      await this.recordFailure(email, clientAddress, 'no_invitation');
      return { refused: 'no invitation' };
    }
    const recorded = await this.members.recordSignIn(member, (manager, m) =>
      this.audit.record(manager, {
        by: memberCaller(m, clientAddress),
        action: 'member.signed_in',
        target: { type: 'member', id: m.id },
        detail: { method: 'oidc' },
      }),
    );
    // Removed since it was read: no longer a member.
    if (!recorded) return { refused: 'no invitation' };
    return { session: await this.sessions.start({ ...member, lastSignInAt: new Date() }) };
  }

  /** `member.sign_in_failed` in every account where the address is a member or invited; no account, no entry. */
  private async recordFailure(email: string, clientAddress: string, reason: string): Promise<void> {
    const known: Member[] = await this.members.byAddress(email, ACCOUNTS_PER_ADDRESS);
    for (const candidate of known) {
      await this.members.recordFailedSignIn(candidate, (manager, m) =>
        this.audit.record(manager, {
          by: memberCaller(m, clientAddress),
          action: 'member.sign_in_failed',
          target: { type: 'member', id: m.id },
          detail: { method: 'oidc', reason },
        }),
      );
    }
  }
}
