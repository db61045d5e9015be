import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../platform/database/database';
import { MemberEntity } from './entities/member.entity';
import type { MemberRole } from './member-role';

const UNIQUE_VIOLATION = '23505';
// Advisory lock space of an account's members (the other half is the account's hash): the last-owner rule.
const MEMBERS_LOCK = 0x6d656d62;
/** A Member's columns, of the table aliased `alias` when given (password resets join members). */
export const memberColumns = (alias?: string): string =>
  [
    'id',
    'account_id AS "accountId"',
    'email',
    'name',
    'role',
    'status',
    'invitation_expires_at AS "invitationExpiresAt"',
    'invited_at AS "invitedAt"',
    'invited_by AS "invitedBy"',
    'joined_at AS "joinedAt"',
    'last_sign_in_at AS "lastSignInAt"',
  ]
    .map((column) => (alias ? `${alias}.${column}` : column))
    .join(', ');
const COLUMNS = memberColumns();
/** Accounts one address is tried, listed or mailed in at once: a sign-in, an OIDC sign-in, a password reset. */
export const ACCOUNTS_PER_ADDRESS = 5;

export type Member = Omit<MemberEntity, 'passwordHash' | 'invitationHash'>;
export type NewInvitation = Pick<MemberEntity, 'id' | 'accountId' | 'email' | 'role' | 'invitedBy'> & {
  invitationHash: Buffer;
};

/** Who changes a member: its role decides whether owners may be touched (an admin may not). */
export interface MemberChange {
  accountId: string;
  id: string;
  actorRole: MemberRole;
}

/** What a change came to: done, no such member, a rule of roles refused it, or it would leave no owner. */
export type ChangeResult = Member | 'not found' | 'owner only' | 'last owner';

/** An account's members; every method but those by hash takes the account, so no one reaches another's. */
/** What a change records beside itself, in its own transaction (docs/teams.md#audit-log). */
export type AlsoInTransaction = (manager: EntityManager, member: Member) => Promise<void>;

@Injectable()
export class MembersRepository {
  constructor(private readonly database: Database) {}

  list(accountId: string): Promise<Member[]> {
    return this.database.query(`SELECT ${COLUMNS} FROM members WHERE account_id = $1 ORDER BY invited_at, id`, [
      accountId,
    ]);
  }

  async byId(accountId: string, id: string): Promise<Member | undefined> {
    const rows: Member[] = await this.database.query(
      `SELECT ${COLUMNS} FROM members WHERE account_id = $1 AND id = $2`,
      [accountId, id],
    );
    return rows[0];
  }

  /**
   * Stores an invitation; 'exists' when the address is already a member or invited (ignoring case).
   * `also` runs in the same transaction once it is stored (its audit entry); so for every change below.
   */
  async invite(invitation: NewInvitation, validDays: number, also: AlsoInTransaction): Promise<Member | 'exists'> {
    try {
      return await this.database.transaction(async (manager) => {
        const [member]: Member[] = await manager.query(
          `INSERT INTO members (id, account_id, email, role, status, invitation_hash, invitation_expires_at, invited_at, invited_by)
         VALUES ($1, $2, $3, $4, 'invited', $5, date_trunc('milliseconds', clock_timestamp()) + make_interval(days => $6),
                 date_trunc('milliseconds', clock_timestamp()), $7)
         RETURNING ${COLUMNS}`,
          [
            invitation.id,
            invitation.accountId,
            invitation.email,
            invitation.role,
            invitation.invitationHash,
            validDays,
            invitation.invitedBy,
          ],
        );
        await also(manager, member);
        return member;
      });
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'exists';
      throw error;
    }
  }

  /** Accepts a pending, unexpired invitation once: its hash is cleared in the same statement. */
  accept(
    invitationHash: Buffer,
    passwordHash: string,
    name: string | undefined,
    also: AlsoInTransaction,
  ): Promise<Member | undefined> {
    return this.database.transaction(async (manager) => {
      const [rows]: [Member[], number] = await manager.query(
        `UPDATE members SET status = 'active', password_hash = $2, name = coalesce($3, name), invitation_hash = NULL,
         invitation_expires_at = NULL, joined_at = date_trunc('milliseconds', clock_timestamp())
       WHERE invitation_hash = $1 AND status = 'invited' AND invitation_expires_at > clock_timestamp()
       RETURNING ${COLUMNS}`,
        [invitationHash, passwordHash, name ?? null],
      );
      if (rows[0]) await also(manager, rows[0]);
      return rows[0];
    });
  }

  /**
   * Forgets the tokens of up to `limit` invitations past their end (the periodic sweep); the invited
   * member stays listed, to be withdrawn and invited again. How many.
   */
  async forgetExpiredInvitations(limit: number): Promise<number> {
    return this.database.rowsChanged(
      `UPDATE members SET invitation_hash = NULL WHERE id IN (
         SELECT id FROM members
         WHERE status = 'invited' AND invitation_hash IS NOT NULL AND invitation_expires_at <= clock_timestamp()
         LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [limit],
    );
  }

  async hasActiveMember(accountId: string): Promise<boolean> {
    const rows: unknown[] = await this.database.query(
      `SELECT 1 FROM members WHERE account_id = $1 AND status = 'active' LIMIT 1`,
      [accountId],
    );
    return rows.length > 0;
  }

  /** Withdraws the pending invitation of `email` in the account made by `invitedBy`, if any. */
  async withdrawInvitation(accountId: string, email: string, invitedBy: string): Promise<void> {
    await this.database.query(
      `DELETE FROM members WHERE account_id = $1 AND lower(email) = lower($2) AND invited_by = $3 AND status = 'invited'`,
      [accountId, email, invitedBy],
    );
  }

  /** Active members with this address in any account, with their password hashes (sign-in). */
  signInCandidates(email: string, limit: number): Promise<(Member & { passwordHash: string })[]> {
    return this.database.query(
      `SELECT ${COLUMNS}, password_hash AS "passwordHash" FROM members
       WHERE lower(email) = lower($1) AND status = 'active' AND password_hash IS NOT NULL
       ORDER BY last_sign_in_at DESC NULLS LAST, id LIMIT $2`,
      [email, limit],
    );
  }

  /** The active member with this address (ignoring case) in `accountId`, if any (switching accounts). */
  async activeByEmail(accountId: string, email: string): Promise<Member | undefined> {
    const rows: Member[] = await this.database.query(
      `SELECT ${COLUMNS} FROM members WHERE account_id = $1 AND lower(email) = lower($2) AND status = 'active'`,
      [accountId, email],
    );
    return rows[0];
  }

  /**
   * Every member or invitation with this address, in any account (an OIDC sign-in's candidates,
   * docs/teams.md#signing-in-with-oidc): active ones by their latest sign-in first, as POST /session
   * tries them, then by joining.
   */
  byAddress(email: string, limit: number): Promise<Member[]> {
    return this.database.query(
      `SELECT ${COLUMNS} FROM members WHERE lower(email) = lower($1)
       ORDER BY status = 'active' DESC, last_sign_in_at DESC NULLS LAST, joined_at, invited_at, id LIMIT $2`,
      [email, limit],
    );
  }

  /**
   * Accepts, with no password, the pending unexpired invitations of an address whose ownership an
   * OIDC provider vouched for, as following the invitation link would; `also` runs for each.
   */
  acceptByAddress(email: string, also: AlsoInTransaction): Promise<Member[]> {
    return this.database.transaction(async (manager) => {
      const [rows]: [Member[], number] = await manager.query(
        `UPDATE members SET status = 'active', invitation_hash = NULL, invitation_expires_at = NULL,
         joined_at = date_trunc('milliseconds', clock_timestamp())
       WHERE lower(email) = lower($1) AND status = 'invited' AND invitation_expires_at > clock_timestamp()
       RETURNING ${COLUMNS}`,
        [email],
      );
      for (const member of rows) await also(manager, member);
      return rows;
    });
  }

  /** Records a sign-in; false, recording nothing, when the member was removed since its password was checked. */
  recordSignIn(member: Member, also: AlsoInTransaction): Promise<boolean> {
    return this.database.transaction(async (manager) => {
      const [rows]: [unknown[], number] = await manager.query(
        `UPDATE members SET last_sign_in_at = date_trunc('milliseconds', clock_timestamp())
         WHERE id = $1 AND status = 'active' RETURNING id`,
        [member.id],
      );
      if (rows.length === 0) return false;
      await also(manager, member);
      return true;
    });
  }

  /** A refused sign-in of an active member: nothing changes but what `also` records. */
  recordFailedSignIn(member: Member, also: AlsoInTransaction): Promise<void> {
    return this.database.transaction((manager) => also(manager, member));
  }

  /** Changes a member's role, unless an admin touches an owner or it would leave the account without an active owner. */
  changeRole(change: MemberChange, role: MemberRole, also: AlsoInTransaction): Promise<ChangeResult> {
    return this.underAccountLock(change.accountId, async (manager) => {
      const refusal = await this.refusal(manager, change, role);
      if (refusal) return refusal;
      const [rows]: [Member[], number] = await manager.query(
        `UPDATE members SET role = $3 WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [change.accountId, change.id, role],
      );
      await also(manager, rows[0]);
      return rows[0];
    });
  }

  /** Removes a member (withdraws an invitation), its sessions with it, under the same rules. */
  remove(change: MemberChange, also: AlsoInTransaction): Promise<ChangeResult> {
    return this.underAccountLock(change.accountId, async (manager) => {
      const refusal = await this.refusal(manager, change, undefined);
      if (refusal) return refusal;
      const [rows]: [Member[], number] = await manager.query(
        `DELETE FROM members WHERE account_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [change.accountId, change.id],
      );
      await also(manager, rows[0]);
      return rows[0];
    });
  }

  /** `role`: the new role; undefined: the member goes. */
  private async refusal(
    manager: EntityManager,
    { accountId, id, actorRole }: MemberChange,
    role: MemberRole | undefined,
  ): Promise<'not found' | 'owner only' | 'last owner' | undefined> {
    const [member]: { role: MemberRole; status: string }[] = await manager.query(
      'SELECT role, status FROM members WHERE account_id = $1 AND id = $2',
      [accountId, id],
    );
    if (!member) return 'not found';
    if (actorRole !== 'owner' && (member.role === 'owner' || role === 'owner')) return 'owner only';
    if (member.role !== 'owner' || member.status !== 'active' || role === 'owner') return undefined;
    const [{ others }]: { others: number }[] = await manager.query(
      `SELECT count(*)::int AS others FROM members
       WHERE account_id = $1 AND id <> $2 AND role = 'owner' AND status = 'active'`,
      [accountId, id],
    );
    return others === 0 ? 'last owner' : undefined;
  }

  private underAccountLock<T>(accountId: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.database.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [MEMBERS_LOCK, accountId]);
      return work(manager);
    });
  }
}
