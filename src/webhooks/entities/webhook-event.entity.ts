import type { RecipientFate } from '../../messages';
import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MessageEntity } from '../../messages';
import type { MessageStatus } from '../../messages';
import { oneOf } from '../../platform/database/sql-list';
import { WEBHOOK_STATES } from '../webhook-state';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';

/**
 * One row of the event outbox (docs/delivery-and-deliverability.md#webhooks): an event for one target, a message's own webhook
 * (endpointId null) or an endpoint. The API calls these deliveries.
 */
@Entity('webhook_events')
@Check('webhook_events_state_check', oneOf('state', WEBHOOK_STATES))
@Index('ix_webhook_events_user_created', ['userId', 'createdAt', 'id'])
@Index('ix_webhook_events_user_message', ['userId', 'messageId', 'createdAt', 'id'])
@Index('ix_webhook_events_endpoint', ['endpointId', 'createdAt', 'id'], { where: 'endpoint_id IS NOT NULL' })
@Index('ix_webhook_events_account_created', ['createdAt'], { where: 'message_id IS NULL' })
export class WebhookEventEntity {
  /** The delivery's id; for a message's own webhook also its event's. */
  @PrimaryColumn('uuid')
  id!: string;

  /** The `webhook-id` of every attempt, the same for every target of the event; null: recorded before endpoints, `id` is. */
  @Column('uuid', { name: 'event_id', nullable: true })
  eventId!: string | null;

  /** Null: recorded before endpoints, `message.<status>`. */
  @Column('text', { nullable: true })
  type!: string | null;

  /** Null for a message's own webhook. */
  @Column('uuid', { name: 'endpoint_id', nullable: true })
  endpointId!: string | null;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'webhook_events_endpoint_id_fkey' })
  endpoint?: WebhookEndpointEntity;

  /** An account event's `data` as written at its change; a recipient event's recipient position. */
  @Column('jsonb', { nullable: true })
  data!: object | null;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column('uuid', { name: 'message_id', nullable: true })
  messageId!: string | null;

  @ManyToOne(() => MessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'webhook_events_message_id_fkey' })
  message?: MessageEntity;

  @Column('integer', { nullable: true })
  sequence!: number | null;

  /** The message's status at the change (message and recipient events). */
  @Column('text', { nullable: true })
  status!: MessageStatus | null;

  @Column('text')
  url!: string;

  @Column('text', { default: 'pending' })
  state!: string;

  @Column('integer', { default: 0 })
  attempts!: number;

  @Column({ type: 'timestamptz', name: 'next_attempt_at', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;

  /** The message's recipients as they stood at the change, for the payload (null: recorded before they had fates). */
  @Column({ type: 'jsonb', name: 'recipient_fates', nullable: true })
  recipientFates!: RecipientFate[] | null;
}
