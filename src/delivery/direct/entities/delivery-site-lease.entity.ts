import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One open connection's hold on its site, renewed while held; an expired one is a gone holder's. UNLOGGED (see its migration). */
@Entity('delivery_site_leases')
@Index('ix_delivery_site_leases_site', ['site', 'expiresAt'])
export class DeliverySiteLeaseEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  site!: string;

  /** Which process holds it (host:pid), for whoever reads the table. */
  @Column('text')
  holder!: string;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt!: Date;
}
