import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { MemberEntity } from '../../members/entities/member.entity';

/** A pending password reset (docs/teams.md#password-reset): only the SHA-256 of its link's token is kept. */
@Entity('password_resets')
@Index('ux_password_resets_token_hash', ['tokenHash'], { unique: true })
@Index('ix_password_resets_member', ['memberId'])
@Index('ix_password_resets_expires_at', ['expiresAt'])
export class PasswordResetEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'member_id' })
  memberId!: string;

  // A removed member's pending resets go with it.
  @ManyToOne(() => MemberEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'member_id', foreignKeyConstraintName: 'password_resets_member_id_fkey' })
  member?: MemberEntity;

  @Column('bytea', { name: 'token_hash', select: false })
  tokenHash!: Buffer;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', name: 'expires_at', precision: 3 })
  expiresAt!: Date;
}
