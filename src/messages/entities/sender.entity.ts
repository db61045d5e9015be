import { Column, CreateDateColumn, Entity, PrimaryColumn, Unique } from 'typeorm';

/** A From address a user has sent with; its id is the Message's `senderId`. */
@Entity('senders')
@Unique('uq_senders_user_email', ['userId', 'email'])
export class SenderEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  /** Lower-cased, so that one address written two ways is one sender. */
  @Column('text')
  email!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
