import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A file stored by POST /attachments, owned by one user, referenced by `attachmentIds` in sends. */
@Entity('attachments')
export class AttachmentEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column('text', { name: 'file_name' })
  fileName!: string;

  @Column('text', { name: 'content_type' })
  contentType!: string;

  @Column('integer')
  size!: number;

  @Column('bytea')
  content!: Buffer;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;
}
