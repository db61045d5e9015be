import type { RecipientFate } from '../recipient-fates';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { SenderEntity } from './sender.entity';
import { oneOf } from '../../platform/database/sql-list';
import { MESSAGE_PRIORITIES, MESSAGE_STATUSES, type MessagePriority, type MessageStatus } from '../message-status';

@Entity('messages')
@Check('messages_status_check', oneOf('status', MESSAGE_STATUSES))
@Check('messages_priority_check', oneOf('priority', MESSAGE_PRIORITIES))
// The list indexes: `sent_at DESC, id DESC` in the migration (InitialSchema), which TypeORM cannot
// express; it compares their names and columns, not their order.
@Index('ix_messages_user_sent', ['userId', 'sentAt', 'id'])
@Index('ix_messages_user_status_sent', ['userId', 'status', 'sentAt', 'id'])
@Index('ix_messages_user_sender_sent', ['userId', 'senderId', 'sentAt', 'id'])
@Index('ix_messages_user_bulk_sent', ['userId', 'bulkSendingId', 'sentAt', 'id'], {
  where: 'bulk_sending_id IS NOT NULL',
})
// The retention purge's walk by day, across users (MessageRetention1764518400000).
@Index('ix_messages_sent', ['sentAt'])
export class MessageEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column('uuid', { name: 'sender_id' })
  senderId!: string;

  @ManyToOne(() => SenderEntity)
  @JoinColumn({ name: 'sender_id', foreignKeyConstraintName: 'messages_sender_id_fkey' })
  senderEntity?: SenderEntity;

  /** The From address exactly as given. */
  @Column('text')
  sender!: string;

  /** The recipients as given, duplicates dropped; `message_recipients` holds them normalized for filtering. */
  @Column('text', { array: true })
  recipients!: string[];

  /** cc and bcc as given, repeats (also of to) dropped; null where not given. */
  @Column('text', { array: true, nullable: true })
  cc!: string[] | null;

  @Column('text', { array: true, nullable: true })
  bcc!: string[] | null;

  @Column('text', { name: 'reply_to', array: true, nullable: true })
  replyTo!: string[] | null;

  @Column('text')
  subject!: string;

  /** null: a text-only message (docs/api.md#sending), which has no HTML part. */
  @Column('text', { nullable: true })
  html!: string | null;

  /** The plain-text part as given; null: derived from html at delivery. */
  @Column('text', { nullable: true })
  text!: string | null;

  @Column('jsonb', { nullable: true })
  headers!: Record<string, string> | null;

  @Column('text')
  status!: MessageStatus;

  @Column('text')
  priority!: MessagePriority;

  @Column('text', { name: 'bulk_sending_id', nullable: true })
  bulkSendingId!: string | null;

  @Column('text', { name: 'contact_id', nullable: true })
  contactId!: string | null;

  @Column('jsonb', { name: 'custom_payload', nullable: true })
  customPayload!: Record<string, string> | null;

  @Column('text', { name: 'webhook_url', nullable: true })
  webhookUrl!: string | null;

  /** Empty means every status (docs/api.md#sending). */
  @Column('text', { name: 'webhook_statuses', array: true, nullable: true })
  webhookStatuses!: MessageStatus[] | null;

  /** Delivery attempts started; a delivery job carries the number of the attempt it is for. */
  @Column('integer', { name: 'delivery_attempts', default: 0 })
  deliveryAttempts!: number;

  /** Status changes so far: the `sequence` of the webhook event each one causes. */
  @Column('integer', { name: 'status_changes', default: 1 })
  statusChanges!: number;

  /** The moment the message was accepted, in milliseconds. */
  @Column({ type: 'timestamptz', name: 'sent_at', precision: 3 })
  sentAt!: Date;

  /** The moment asked for (docs/api.md#sending); the first delivery job waits for it. */
  @Column({ type: 'timestamptz', name: 'scheduled_at', precision: 3, nullable: true })
  scheduledAt!: Date | null;

  /** Each recipient's fate (docs/delivery-and-deliverability.md#statuses "Recipients"), in delivery order: RecipientFate[]. */
  @Column({ type: 'jsonb', name: 'recipient_fates', default: () => "'[]'" })
  recipientFates!: RecipientFate[];

  /** While deferred, when the next delivery attempt is due (its retry job's start); null otherwise. */
  @Column({ type: 'timestamptz', name: 'next_attempt_at', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'updated_at', precision: 3 })
  updatedAt!: Date;
}
