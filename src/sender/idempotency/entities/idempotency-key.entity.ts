import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The first answer to a send that carried an Idempotency-Key, kept 24 h for repeats (docs/api.md#sending). */
@Entity('idempotency_keys')
@Index('ix_idempotency_keys_created', ['createdAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn('text', { name: 'user_id' })
  userId!: string;

  @PrimaryColumn('text')
  key!: string;

  /** SHA-256 of the request body in canonical form: a repeat must carry the same one. */
  @Column('bytea', { name: 'request_hash' })
  requestHash!: Buffer;

  /** `json`, not `jsonb`: the answer is replayed byte for byte, its key order included. */
  @Column('json')
  response!: object;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;
}
