import type { RecipientFate } from '../../messages/recipient-fates';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from 'typeorm';
import { MessageEntity } from '../../messages/entities/message.entity';
import type { MessageStatus } from '../../messages/message-status';

/** One event of the webhook outbox: a status change some message's webhook asked to hear about. */
@Entity('webhook_events')
@Unique('uq_webhook_events_message_sequence', ['messageId', 'sequence'])
@Check('webhook_events_state_check', `state IN ('pending', 'delivered', 'failed', 'gone')`)
@Index('ix_webhook_events_user_created', ['userId', 'createdAt', 'id'])
@Index('ix_webhook_events_user_message', ['userId', 'messageId', 'createdAt', 'id'])
export class WebhookEventEntity {
  /** Also the `webhook-id` of every attempt. */
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column('uuid', { name: 'message_id' })
  messageId!: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'webhook_events_message_id_fkey' })
  message?: MessageEntity;

  @Column('integer')
  sequence!: number;

  @Column('text')
  status!: MessageStatus;

  @Column('text')
  url!: string;

  @Column('text', { default: 'pending' })
  state!: string;

  @Column('integer', { default: 0 })
  attempts!: number;

  @Column({ type: 'timestamptz', name: 'next_attempt_at', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;

  /** The message's recipients as they stood at the change, for the payload (null: recorded before they had fates). */
  @Column({ type: 'jsonb', name: 'recipient_fates', nullable: true })
  recipientFates!: RecipientFate[] | null;
}
