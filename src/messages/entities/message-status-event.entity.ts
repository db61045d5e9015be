import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { MessageEntity } from './message.entity';
import type { MessageStatus } from '../message-status';

/** One entry of a message's status history, appended on every status change. */
@Entity('message_status_events')
@Check('message_status_events_status_check', `status IN ('scheduled', 'queued', 'sending', 'deferred', 'sent', 'failed', 'canceled', 'suppressed')`)
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
}
