import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MessageEntity } from '../../../messages';

/** A report the loop has applied (docs/delivery-and-deliverability.md): the same report again changes nothing more. */
@Entity('applied_reports')
export class AppliedReportEntity {
  @PrimaryColumn('uuid', { name: 'message_id' })
  messageId!: string;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'applied_reports_message_id_fkey' })
  message?: MessageEntity;

  /** The address key of the recipient the report was about. */
  @PrimaryColumn('text')
  recipient!: string;

  @PrimaryColumn('text')
  kind!: string;

  /** SHA-256 (hex) of what the report says (ApplyReportsUseCase), not of the mail that carried it. */
  @PrimaryColumn('text')
  fingerprint!: string;

  @Column({ type: 'timestamptz', name: 'applied_at', precision: 3 })
  appliedAt!: Date;
}
