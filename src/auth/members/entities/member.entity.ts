import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { sqlLiterals } from '../../../platform/database/sql-list';
import { MEMBER_ROLES, MEMBER_STATUSES, type MemberRole, type MemberStatus } from '../member-role';

/**
 * A person of an account's team (docs/teams.md). While `invited`, the row is the invitation: its
 * token's hash and end. The address is unique per account ignoring case: an expression index the
 * migration declares, named here only so that TypeORM's diff, which cannot express it, leaves it be.
 */
@Entity('members')
@Check('members_role_check', `role IN (${sqlLiterals(MEMBER_ROLES)})`)
@Check('members_status_check', `status IN (${sqlLiterals(MEMBER_STATUSES)})`)
@Index('ux_members_account_email', { synchronize: false })
@Index('ux_members_invitation_hash', ['invitationHash'], { unique: true })
export class MemberEntity {
  @PrimaryColumn('uuid')
  id!: string;

  /** The account: a JWT's `sub`. */
  @Column('text', { name: 'account_id' })
  accountId!: string;

  @Column('text')
  email!: string;

  @Column('text', { nullable: true })
  name!: string | null;

  @Column('text')
  role!: MemberRole;

  @Column('text')
  status!: MemberStatus;

  /** Argon2id, in its PHC string; null until the invitation is accepted. */
  @Column('text', { name: 'password_hash', nullable: true, select: false })
  passwordHash!: string | null;

  /** SHA-256 of the invitation token; null once accepted. */
  @Column('bytea', { name: 'invitation_hash', nullable: true, select: false })
  invitationHash!: Buffer | null;

  @Column({ type: 'timestamptz', name: 'invitation_expires_at', precision: 3, nullable: true })
  invitationExpiresAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'invited_at', precision: 3 })
  invitedAt!: Date;

  /** Who invited: the inviting member's address, the JWT's `sub`, or `cli`. */
  @Column('text', { name: 'invited_by' })
  invitedBy!: string;

  @Column({ type: 'timestamptz', name: 'joined_at', precision: 3, nullable: true })
  joinedAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'last_sign_in_at', precision: 3, nullable: true })
  lastSignInAt!: Date | null;
}
