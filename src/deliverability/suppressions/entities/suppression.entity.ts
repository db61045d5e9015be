import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { oneOf } from '../../../platform/database/sql-list';
import { SUPPRESSION_REASONS, type SuppressionReason, type SuppressionScope } from '../suppression-reason';

/** An address a user's mail no longer goes to (docs/api.md#routes, docs/delivery-and-deliverability.md): skipped at delivery time. */
@Entity('suppressions')
@Check('suppressions_reason_check', oneOf('reason', SUPPRESSION_REASONS))
@Check(
  'suppressions_scope_check',
  `(scope = 'all' AND reason <> 'unsubscribe') OR (scope = 'bulk' AND reason IN ('unsubscribe', 'manual'))`,
)
@Index('ix_suppressions_user_created', ['userId', 'createdAt', 'email'])
export class SuppressionEntity {
  @PrimaryColumn('text', { name: 'user_id' })
  userId!: string;

  /** The address key: lower-cased as recipients are compared (recipientKey). */
  @PrimaryColumn('text')
  email!: string;

  @Column('text')
  reason!: SuppressionReason;

  /** Which mail it stops: `bulk` only for an unsubscribe or a manual entry that asked for it. */
  @Column('text')
  scope!: SuppressionScope;

  /** The message whose bounce, complaint or unsubscribe caused the entry; null for a manual one. */
  @Column('uuid', { name: 'message_id', nullable: true })
  messageId!: string | null;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;
}
