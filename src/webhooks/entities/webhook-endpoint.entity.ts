import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A user's webhook endpoint (docs/delivery-and-deliverability.md#webhooks): where its account's events go, with its own signing secret. */
@Entity('webhook_endpoints')
@Index('ix_webhook_endpoints_user', ['userId', 'createdAt', 'id'])
export class WebhookEndpointEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column('text')
  url!: string;

  /** Event types it receives; empty: all of them. */
  @Column('text', { array: true, default: () => "'{}'" })
  events!: string[];

  @Column('text', { nullable: true })
  description!: string | null;

  @Column('boolean', { default: true })
  enabled!: boolean;

  /** Why it was disabled by the service (`failing`); null when enabled or disabled by its owner. */
  @Column('text', { name: 'disabled_reason', nullable: true })
  disabledReason!: string | null;

  /** The signing secret, sealed by EndpointSecretCipher; opened only to sign or to show it. */
  @Column('bytea')
  secret!: Buffer;

  /** The secret before the last rotation (sealed), which still signs until previousSecretUntil. */
  @Column('bytea', { name: 'previous_secret', nullable: true })
  previousSecret!: Buffer | null;

  @Column({ type: 'timestamptz', name: 'previous_secret_until', precision: 3, nullable: true })
  previousSecretUntil!: Date | null;

  /** The first failed attempt since the last success; null when the last attempt succeeded. */
  @Column({ type: 'timestamptz', name: 'failing_since', precision: 3, nullable: true })
  failingSince!: Date | null;

  /** Failed attempts since the last success. */
  @Column('integer', { name: 'failed_attempts', default: 0 })
  failedAttempts!: number;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;
}
