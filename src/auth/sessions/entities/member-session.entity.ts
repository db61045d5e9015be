import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MemberEntity } from '../../members/entities/member.entity';

/** A member's console session (docs/teams.md#signing-in): only the SHA-256 of its cookie is kept. */
@Entity('member_sessions')
@Index('ux_member_sessions_token_hash', ['tokenHash'], { unique: true })
@Index('ix_member_sessions_member', ['memberId'])
export class MemberSessionEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'member_id' })
  memberId!: string;

  // Removing the member ends its sessions in the same statement.
  @ManyToOne(() => MemberEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'member_id', foreignKeyConstraintName: 'member_sessions_member_id_fkey' })
  member?: MemberEntity;

  @Column('bytea', { name: 'token_hash', select: false })
  tokenHash!: Buffer;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'last_used_at', precision: 3 })
  lastUsedAt!: Date;
}
