import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One row per recipient, lower-cased, carrying the owner and time of its message so that the
 * `toEmail` filter is one index range in list order.
 */
@Entity('message_recipients')
@Index('ix_message_recipients_user_email_sent', ['userId', 'email', 'sentAt', 'messageId'])
export class MessageRecipientEntity {
  @PrimaryColumn('uuid', { name: 'message_id' })
  messageId!: string;

  @PrimaryColumn('text')
  email!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column({ type: 'timestamptz', name: 'sent_at', precision: 3 })
  sentAt!: Date;
}
