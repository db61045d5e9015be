import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { NotFoundError, StateConflictError } from '../../platform/problem/problem.errors';
import { isUuid } from '../../platform/uuid';
import type { AuthUser } from '../auth-user';
import { MissingScopeError } from '../missing-scope.error';
import { hashOfToken } from '../opaque-token';
import { SessionsService, type StartedSession } from '../sessions/sessions.service';
import type {
  AcceptInvitationDto,
  ChangeMemberDto,
  InviteMemberDto,
  MemberListResponse,
  MemberResponse,
} from './dto/member.dto';
import { mapMember } from './map-member';
import type { MemberRole } from './member-role';
import { MembersRepository, type ChangeResult, type Member } from './members.repository';
import { PasswordHasher } from './password-hasher';
import { SystemMail } from './system-mail';
import { INVITATION_VALID_DAYS, Invitations } from './invitations';
import { AuditLog } from '../audit/audit-log';
import { memberCaller } from './member-caller';

/** Who manages members, and as whom the change is recorded. */
interface Manager {
  role: MemberRole;
  label: string;
}

/** The members of an account: invitations, roles, removal (docs/teams.md#members-and-roles). */
@Injectable()
export class MembersService {
  constructor(
    private readonly members: MembersRepository,
    private readonly invitations: Invitations,
    private readonly passwords: PasswordHasher,
    private readonly sessions: SessionsService,
    private readonly mail: SystemMail,
    private readonly config: AppConfig,
    private readonly audit: AuditLog,
  ) {}

  async list(user: AuthUser): Promise<MemberListResponse> {
    manager(user);
    return { members: (await this.members.list(user.id)).map(mapMember) };
  }

  /** Stores the invitation and mails its link; an admin may not invite an owner. */
  async invite(user: AuthUser, body: InviteMemberDto): Promise<MemberResponse> {
    const actor = manager(user);
    if (body.role === 'owner' && actor.role !== 'owner') throw ownerOnly();
    const { member, link } = await this.invitations.create(user.id, body.email, body.role, actor.label, (manager, m) =>
      this.audit.record(manager, {
        by: user,
        action: 'member.invited',
        target: { type: 'member', id: m.id },
        detail: { email: m.email, role: m.role },
      }),
    );
    await this.mail.send({
      from: this.config.teams.systemMailFrom,
      to: member.email,
      subject: 'You are invited to Mailroom',
      text: [
        `${actor.label} invites you to the Mailroom account ${user.id} as ${member.role}.`,
        '',
        `Choose your password here, within ${INVITATION_VALID_DAYS} days (the link works once):`,
        link,
        '',
        'If you did not expect this, ignore this mail.',
      ].join('\n'),
    });
    return mapMember(member);
  }

  async changeRole(user: AuthUser, id: string, body: ChangeMemberDto): Promise<MemberResponse> {
    const actor = manager(user);
    return mapMember(
      outcome(
        await this.change(user, id, (change) =>
          this.members.changeRole({ ...change, actorRole: actor.role }, body.role, (manager, m) =>
            this.audit.record(manager, {
              by: user,
              action: 'member.role_changed',
              target: { type: 'member', id: m.id },
              detail: { email: m.email, role: m.role },
            }),
          ),
        ),
      ),
    );
  }

  /** Removes a member or withdraws an invitation; the member's sessions end with it, on every process at once. */
  async remove(user: AuthUser, id: string): Promise<void> {
    const actor = manager(user);
    outcome(
      await this.change(user, id, (change) =>
        this.members.remove({ ...change, actorRole: actor.role }, (manager, m) =>
          this.audit.record(manager, {
            by: user,
            action: 'member.removed',
            target: { type: 'member', id: m.id },
            detail: { email: m.email, role: m.role },
          }),
        ),
      ),
    );
  }

  /** POST /invitations/{token}/accept: the password is set, the member active and signed in. */
  async accept(token: string, body: AcceptInvitationDto, clientAddress: string): Promise<StartedSession> {
    const hash = hashOfToken(token);
    // Hashed before the look-up, so that a valid token's answer takes no longer than a forged one's.
    const passwordHash = await this.passwords.hash(body.password);
    const member =
      hash &&
      (await this.members.accept(hash, passwordHash, body.name, (manager, m) =>
        this.audit.record(manager, {
          by: memberCaller(m, clientAddress),
          action: 'member.joined',
          target: { type: 'member', id: m.id },
          detail: { email: m.email, role: m.role },
        }),
      ));
    if (!member) throw new NotFoundError('That invitation (used, expired, withdrawn or never made)');
    return this.sessions.start(member);
  }

  private change(
    user: AuthUser,
    id: string,
    work: (change: { accountId: string; id: string }) => Promise<ChangeResult>,
  ): Promise<ChangeResult> {
    return isUuid(id) ? work({ accountId: user.id, id }) : Promise.resolve('not found');
  }
}

/** Owners and admins manage members; a JWT's holder has the signing key, so counts as an owner; an API key never. */
function manager(user: AuthUser): Manager {
  if (user.apiKey)
    throw new MissingScopeError('API keys never manage members; use a JWT or sign in as an owner or admin.');
  if (!user.member) return { role: 'owner', label: user.id };
  if (user.member.role !== 'owner' && user.member.role !== 'admin') {
    throw new MissingScopeError(`The role ${user.member.role} does not manage members; owners and admins do.`);
  }
  return { role: user.member.role, label: user.member.email };
}

function ownerOnly(): MissingScopeError {
  return new MissingScopeError('Only an owner adds, removes or changes an owner.');
}

function outcome(result: ChangeResult): Member {
  if (result === 'not found') throw new NotFoundError('That member');
  if (result === 'owner only') throw ownerOnly();
  if (result === 'last owner') {
    throw new StateConflictError('The account must keep an owner: make another member owner first.');
  }
  return result;
}
