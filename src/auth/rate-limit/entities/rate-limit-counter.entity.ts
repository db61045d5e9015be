import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One user's requests in the current minute (docs/configuration.md RATE_LIMIT_PER_MINUTE). The table is
 * UNLOGGED (see its migration), which TypeORM cannot express; it never compares it either.
 */
@Entity('rate_limit_counters')
export class RateLimitCounterEntity {
  @PrimaryColumn('text')
  key!: string;

  @Column('integer')
  hits!: number;

  @Column({ type: 'timestamptz', name: 'window_ends_at' })
  windowEndsAt!: Date;
}
