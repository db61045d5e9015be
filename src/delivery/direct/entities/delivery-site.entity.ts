import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A destination site's pace across every worker process (docs/delivery-and-deliverability.md#direct-delivery):
 * its limit, the allowance its last slow-down left, and until when it waits. UNLOGGED (see its migration).
 */
@Entity('delivery_sites')
export class DeliverySiteEntity {
  @PrimaryColumn('text')
  site!: string;

  @Column({ type: 'integer', name: 'connection_limit' })
  connectionLimit!: number;

  @Column('integer')
  concurrency!: number;

  @Column({ type: 'timestamptz', name: 'paused_until', nullable: true })
  pausedUntil!: Date | null;

  @Column({ type: 'timestamptz', name: 'last_slowed_at', nullable: true })
  lastSlowedAt!: Date | null;
}
