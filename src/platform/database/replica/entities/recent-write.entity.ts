import { Column, Entity, PrimaryColumn } from 'typeorm';

/** When an owner last wrote, for the replica's read-your-writes rule (RecentWrites). UNLOGGED (see its migration). */
@Entity('recent_writes')
export class RecentWriteEntity {
  @PrimaryColumn('text', { name: 'owner_id' })
  ownerId!: string;

  @Column({ type: 'timestamptz', name: 'written_at' })
  writtenAt!: Date;
}
