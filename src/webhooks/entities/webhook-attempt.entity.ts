import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEventEntity } from './webhook-event.entity';

/** One POST of a webhook event: the delivery log. */
@Entity('webhook_attempts')
@Index('ix_webhook_attempts_event', ['eventId', 'id'])
export class WebhookAttemptEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id!: string;

  @Column('uuid', { name: 'event_id' })
  eventId!: string;

  @ManyToOne(() => WebhookEventEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'event_id', foreignKeyConstraintName: 'webhook_attempts_event_id_fkey' })
  event?: WebhookEventEntity;

  @Column({ type: 'timestamptz', name: 'attempted_at', precision: 3 })
  attemptedAt!: Date;

  @Column('integer', { name: 'status_code', nullable: true })
  statusCode!: number | null;

  @Column('integer', { name: 'duration_ms' })
  durationMs!: number;

  @Column('text', { nullable: true })
  error!: string | null;

  /** The first bytes of the receiver's answer (WebhookPoster's RESPONSE_BODY_BYTES), as UTF-8; null when none came. */
  @Column('text', { name: 'response_body', nullable: true })
  responseBody!: string | null;
}
