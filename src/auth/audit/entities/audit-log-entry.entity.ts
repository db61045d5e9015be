import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { sqlList } from '../../../platform/database/sql-list';
import { AUDIT_ACTOR_TYPES, type AuditActorType } from '../audit-actions';

/** One change to an account, written in the change's own transaction (docs/teams.md#audit-log). */
@Entity('audit_log_entries')
@Check('audit_log_entries_actor_type_check', `actor_type IN ${sqlList(AUDIT_ACTOR_TYPES)}`)
@Index('ix_audit_log_entries_user_at', ['userId', 'at', 'id'])
@Index('ix_audit_log_entries_user_actor_at', ['userId', 'actorId', 'at', 'id'])
@Index('ix_audit_log_entries_user_action_at', ['userId', 'action', 'at', 'id'])
@Index('ix_audit_log_entries_at', ['at'])
export class AuditLogEntryEntity {
  @PrimaryColumn('uuid')
  id!: string;

  /** The account changed. */
  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  at!: Date;

  @Column('text', { name: 'actor_type' })
  actorType!: AuditActorType;

  /** The member's id, the API key's id, or the JWT's `sub`. */
  @Column('text', { name: 'actor_id' })
  actorId!: string;

  /** The member's email, the API key's prefix, or the JWT's `sub`: kept as it was, should the actor go. */
  @Column('text', { name: 'actor_label' })
  actorLabel!: string;

  @Column('text')
  action!: string;

  @Column('text', { name: 'target_type' })
  targetType!: string;

  @Column('text', { name: 'target_id' })
  targetId!: string;

  /** The client's address (TRUST_PROXY), as the request log has it. */
  @Column('text', { name: 'client_address' })
  clientAddress!: string;

  @Column('jsonb')
  detail!: Record<string, unknown>;
}
