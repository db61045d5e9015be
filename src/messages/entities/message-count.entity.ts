import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import { oneOf } from '../../platform/database/sql-list';
import { MESSAGE_COUNT_DIMENSIONS, type MessageCountDimension } from './message-count-change.entity';

/**
 * A user's message count along one dimension, as compacted from message_count_changes (see the
 * migration MessageCounts1764086400000 for what `value` and `status` hold in each dimension).
 */
@Entity('message_counts')
@Check('message_counts_dimension_check', oneOf('dimension', MESSAGE_COUNT_DIMENSIONS))
export class MessageCountEntity {
  @PrimaryColumn('text', { name: 'user_id' })
  userId!: string;

  @PrimaryColumn('text')
  dimension!: MessageCountDimension;

  @PrimaryColumn('text')
  value!: string;

  @PrimaryColumn('text')
  status!: string;

  /** bigint: pg returns it as a string. */
  @Column('bigint')
  n!: string;
}
