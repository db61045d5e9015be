import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { sqlLiterals } from '../../../platform/database/sql-list';
import { API_KEY_SCOPES, type ApiKeyScope } from '../api-key-scope';

/** A user's API key (docs/api.md#smtp-submission): never the key itself, only its keyed hash (ApiKeyHasher). */
@Entity('api_keys')
@Check('api_keys_name_check', 'char_length(name) BETWEEN 1 AND 100')
@Check('api_keys_scopes_check', `cardinality(scopes) > 0 AND scopes <@ ARRAY[${sqlLiterals(API_KEY_SCOPES)}]::text[]`)
@Index('ux_api_keys_hash', ['hash'], { unique: true })
@Index('ix_api_keys_user_created', ['userId', 'createdAt', 'id'])
export class ApiKeyEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text', { name: 'user_id' })
  userId!: string;

  @Column('text')
  name!: string;

  @Column('text', { array: true })
  scopes!: ApiKeyScope[];

  /** The key's first 8 characters, to tell keys apart; null for keys made before it was kept. */
  @Column('text', { nullable: true })
  prefix!: string | null;

  /** HMAC-SHA256 of the key: what a presented key is looked up by. */
  @Column('bytea', { select: false })
  hash!: Buffer;

  @Column({ type: 'timestamptz', name: 'created_at', precision: 3 })
  createdAt!: Date;

  /** Written at most once a minute per key and process, off the request's path. */
  @Column({ type: 'timestamptz', name: 'last_used_at', precision: 3, nullable: true })
  lastUsedAt!: Date | null;
}
