import { Column, Entity, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { MessageEntity } from './message.entity';

/**
 * The MIME of a message submitted over SMTP (docs/api.md#smtp-submission), as received: delivery sends these bytes
 * rather than composing the message from its fields. A table of its own, so that the messages
 * table (read by every list) stays narrow.
 */
@Entity('message_mime')
export class MessageMimeEntity {
  @PrimaryColumn('uuid', { name: 'message_id', primaryKeyConstraintName: 'message_mime_pkey' })
  messageId!: string;

  @OneToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'message_mime_message_id_fkey' })
  message?: MessageEntity;

  @Column('bytea')
  content!: Buffer;

  /** What its first read-back found (SubmittedContent: bodies, headers, where each attachment lies); null until then. */
  @Column('jsonb', { nullable: true })
  reading!: unknown;
}
