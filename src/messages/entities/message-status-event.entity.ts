import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { MessageEntity } from './message.entity';
import { oneOf } from '../../platform/database/sql-list';
import { MESSAGE_STATUSES, type MessageStatus } from '../message-status';

/** One entry of a message's status history, appended on every status change. */
@Entity('message_status_events')
@Check('message_status_events_status_check', oneOf('status', MESSAGE_STATUSES))
@Index('ix_message_status_events_message', ['messageId', 'id'])
export class MessageStatusEventEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column('uuid', { name: 'message_id' })
  messageId!: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'message_status_events_message_id_fkey' })
  message?: MessageEntity;

  @Column('text')
  status!: MessageStatus;

  @Column({ type: 'timestamptz', precision: 3 })
  at!: Date;

  /** The SMTP reply or error behind the change, when there is one. */
  @Column('text', { nullable: true })
  detail!: string | null;

  /** The recipient (address key) a per-recipient event is about: a bounce, a complaint (docs/delivery-and-deliverability.md#statuses). */
  @Column('text', { nullable: true })
  recipient!: string | null;

  /** A report recorded without a status change (a delay notice, an unreadable report): not one of the changes webhooks count. */
  @Column('boolean', { default: false })
  note!: boolean;
}
