import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const MESSAGE_COUNT_DIMENSIONS = ['status', 'day', 'sender', 'bulk', 'recipient', 'recipient_day'] as const;
export type MessageCountDimension = (typeof MESSAGE_COUNT_DIMENSIONS)[number];

/**
 * A +/- change to one message count, appended by the triggers on messages and
 * message_recipients (which TypeORM cannot express: they live in the migration) so that
 * concurrent sends never wait on one counter row; compacted into message_counts now and then.
 */
@Entity('message_count_changes')
@Index('ix_message_count_changes_key', ['userId', 'dimension', 'value', 'status'])
export class MessageCountChangeEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column('text')
  dimension!: MessageCountDimension;

  @Column('text')
  value!: string;

  @Column('text')
  status!: string;

  @Column('bigint')
  delta!: string;
}
