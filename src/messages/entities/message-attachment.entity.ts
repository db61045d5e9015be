import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AttachmentEntity } from '../attachments/entities/attachment.entity';
import { MessageEntity } from './message.entity';

/**
 * One attachment of a message, in the order delivery attaches them: an inline one of the send
 * body (decoded, its bytes here) or a stored one of `attachmentIds` (its bytes stay in
 * `attachments`, so a file sent to many recipients is stored once).
 */
@Entity('message_attachments')
@Index('ix_message_attachments_message', ['messageId', 'position'])
@Check('ck_message_attachments_one_source', `(content IS NULL) <> (attachment_id IS NULL)`)
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

  @Column('bytea', { nullable: true })
  content!: Buffer | null;

  /** An inline one's Content-ID (without angle brackets), which the HTML's `cid:` references name; null: an ordinary attachment. */
  @Column('text', { name: 'content_id', nullable: true })
  contentId!: string | null;

  @Column('uuid', { name: 'attachment_id', nullable: true })
  attachmentId!: string | null;

  @ManyToOne(() => AttachmentEntity)
  @JoinColumn({ name: 'attachment_id', foreignKeyConstraintName: 'message_attachments_attachment_id_fkey' })
  attachment?: AttachmentEntity;
}
