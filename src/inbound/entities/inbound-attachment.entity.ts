import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { InboundMailEntity } from './inbound-mail.entity';

/** One attachment of a received mail, decoded, in the order mailparser found it (its `index`). */
@Entity('inbound_attachments')
export class InboundAttachmentEntity {
  @PrimaryColumn('uuid', { name: 'inbound_id' })
  inboundId!: string;

  @ManyToOne(() => InboundMailEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'inbound_id', foreignKeyConstraintName: 'inbound_attachments_inbound_id_fkey' })
  inbound?: InboundMailEntity;

  @PrimaryColumn('smallint')
  position!: number;

  @Column('text', { name: 'file_name' })
  fileName!: string;

  @Column('text', { name: 'content_type' })
  contentType!: string;

  @Column('integer')
  size!: number;

  @Column('bytea', { select: false })
  content!: Buffer;
}
