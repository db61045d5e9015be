import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MessageEntity } from './message.entity';

/**
 * One row per recipient (to, cc and bcc alike), its address part lower-cased, carrying the owner and time of its message so that the
 * `toEmail` filter is one index range in list order.
 */
@Entity('message_recipients')
// `sent_at DESC, message_id DESC` in the migration (InitialSchema): an order TypeORM cannot express.
@Index('ix_message_recipients_user_email_sent', ['userId', 'email', 'sentAt', 'messageId'])
export class MessageRecipientEntity {
  @PrimaryColumn('uuid', { name: 'message_id' })
  messageId!: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'message_recipients_message_id_fkey' })
  message?: MessageEntity;

  @PrimaryColumn('text')
  email!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column({ type: 'timestamptz', name: 'sent_at', precision: 3 })
  sentAt!: Date;
}
