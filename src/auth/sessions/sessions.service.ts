import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { AppConfig } from '../../platform/config/app-config';
import { NotFoundError, RateLimitedError } from '../../platform/problem/problem.errors';
import type { AuthUser } from '../auth-user';
import { mapMember } from '../members/map-member';
import { ACCOUNTS_PER_ADDRESS, MembersRepository, type Member } from '../members/members.repository';
import { PasswordHasher } from '../members/password-hasher';
import { hashOfToken, newOpaqueToken } from '../opaque-token';
import type { SessionResponse, SignInDto, SwitchAccountDto } from './dto/session.dto';
import { NoSessionError, SignInRefusedError } from './session.errors';
import { SessionsRepository, type SessionLifetimes } from './sessions.repository';
import { SignInThrottle } from './sign-in-throttle';
import { AuditLog } from '../audit/audit-log';
import { memberCaller } from '../members/member-caller';
import { countedAddress } from '../../platform/http/client-address';

/** The accounts a session answer lists (docs/teams.md#several-accounts). */
const ACCOUNTS_LISTED = 20;

/** A session just started: the cookie's value (shown once) and what the answer says. */
export interface StartedSession {
  token: string;
  body: SessionResponse;
}

/** Sign-in, the session behind every cookie-authenticated request, and sign-out (docs/teams.md#signing-in). */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly members: MembersRepository,
    private readonly passwords: PasswordHasher,
    private readonly throttle: SignInThrottle,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Checks the password against the address's members; an unknown address costs a dummy hash's
   * time, so it cannot be told from a wrong password. Past the failures allowed to the address
   * or the client, refused (429) until the window ends, without a check.
   */
  async signIn({ email, password }: SignInDto, clientAddress: string): Promise<StartedSession> {
    const client = countedAddress(clientAddress);
    const refusal = await this.throttle.take(email, client);
    if (refusal) {
      throw new RateLimitedError(
        refusal.limit,
        refusal.retryAfterSeconds,
        `Too many failed sign-ins; retry after ${refusal.retryAfterSeconds} s.`,
      );
    }
    const candidates = await this.members.signInCandidates(email, ACCOUNTS_PER_ADDRESS);
    let member: Member | undefined;
    if (candidates.length === 0) await this.passwords.verify(undefined, password);
    for (const candidate of candidates) {
      if (await this.passwords.verify(candidate.passwordHash, password)) {
        member = candidate;
        break;
      }
    }
    if (!member) {
      // Recorded in the accounts where the address is a member; an unknown address has no account.
      for (const candidate of candidates) {
        await this.members.recordFailedSignIn(candidate, (manager, m) =>
          this.audit.record(manager, {
            by: memberCaller(m, clientAddress),
            action: 'member.sign_in_failed',
            target: { type: 'member', id: m.id },
          }),
        );
      }
      throw new SignInRefusedError();
    }
    await this.throttle.succeeded(email, client);
    const recorded = await this.members.recordSignIn(member, (manager, m) =>
      this.audit.record(manager, {
        by: memberCaller(m, clientAddress),
        action: 'member.signed_in',
        target: { type: 'member', id: m.id },
      }),
    );
    // Removed since its password was checked: no longer a member, answered as an unknown address.
    if (!recorded) throw new SignInRefusedError();
    return this.start({ ...member, lastSignInAt: new Date() });
  }

  private get lifetimes(): SessionLifetimes {
    return { idleMinutes: this.config.teams.sessionIdleMinutes, maxHours: this.config.teams.sessionMaxHours };
  }

  /** A new session for `member` (a sign-in, an accepted invitation): a new cookie every time; 401 if it was just removed. */
  async start(member: Member): Promise<StartedSession> {
    const { token, hash } = newOpaqueToken();
    if (!(await this.sessions.start(uuidv7(), member.id, hash, this.lifetimes))) {
      throw new NoSessionError('The member was removed as its session began: it has no session.');
    }
    return { token, body: await this.describe(member) };
  }

  /** What a session answer says of `member`, with the accounts its address may switch to. */
  private async describe(member: Member): Promise<SessionResponse> {
    const memberships = await this.members.byAddress(member.email, ACCOUNTS_LISTED);
    const accounts = memberships
      .filter((m) => m.status === 'active')
      .map((m) => ({ userId: m.accountId, role: m.role }))
      .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
    return { member: mapMember(member), account: { userId: member.accountId }, role: member.role, accounts };
  }

  /** The caller of a request from `clientAddress` presenting the cookie `token`; undefined when no live session has it. */
  async authenticate(token: string, clientAddress: string): Promise<AuthUser | undefined> {
    const hash = hashOfToken(token);
    if (!hash) return undefined;
    const session = await this.sessions.live(hash, this.lifetimes);
    if (!session) return undefined;
    if (session.stale) await this.sessions.touch(session.sessionId);
    return {
      id: session.accountId,
      member: { id: session.memberId, email: session.email, role: session.role, sessionId: session.sessionId },
      clientAddress,
    };
  }

  /** GET /session: the signed-in member as it stands. */
  async current(user: AuthUser): Promise<SessionResponse> {
    const member = user.member && (await this.members.byId(user.id, user.member.id));
    if (!member) throw new NoSessionError('Not signed in: this request carries no session cookie.');
    return this.describe(member);
  }

  /**
   * POST /session/account: the same person (the signed-in member's address, which its session proves
   * as a sign-in would) becomes the active member of that address in another account, in a new
   * session; the current one ends, as the browser's cookie is replaced (docs/teams.md#several-accounts).
   */
  async switchAccount(user: AuthUser, { userId }: SwitchAccountDto): Promise<StartedSession> {
    if (!user.member) throw new NoSessionError('Not signed in: this request carries no session cookie.');
    const member = await this.members.activeByEmail(userId, user.member.email);
    if (!member) throw new NotFoundError(`An active member ${user.member.email} of the account ${userId}`);
    const recorded = await this.members.recordSignIn(member, (manager, m) =>
      this.audit.record(manager, {
        by: memberCaller(m, user.clientAddress),
        action: 'member.signed_in',
        target: { type: 'member', id: m.id },
        detail: { from: user.id },
      }),
    );
    if (!recorded) throw new NotFoundError(`An active member ${user.member.email} of the account ${userId}`);
    await this.sessions.end(user.member.sessionId);
    return this.start({ ...member, lastSignInAt: new Date() });
  }

  /** DELETE /session: the session ends for every process at once (its row is gone). */
  async signOut(user: AuthUser): Promise<void> {
    if (!user.member) throw new NoSessionError('Not signed in: this request carries no session cookie.');
    await this.sessions.end(user.member.sessionId);
  }
}
