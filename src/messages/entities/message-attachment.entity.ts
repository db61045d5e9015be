import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MessageEntity } from './message.entity';

/** An inline attachment of a send body, decoded, kept with its message for delivery. */
@Entity('message_attachments')
@Index('ix_message_attachments_message', ['messageId', 'position'])
export class MessageAttachmentEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'message_id' })
  messageId!: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'message_attachments_message_id_fkey' })
  message?: MessageEntity;

  @Column('smallint')
  position!: number;

  @Column('text', { name: 'file_name' })
  fileName!: string;

  @Column('text', { name: 'content_type' })
  contentType!: string;

  @Column('integer')
  size!: number;

  @Column('bytea')
  content!: Buffer;
}
