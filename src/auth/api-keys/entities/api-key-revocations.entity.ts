import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One row whose generation every key deletion raises in its own transaction: API processes poll
 * it to learn, within a second, that a key they hold in memory may be gone (ApiKeys).
 */
@Entity('api_key_revocations')
@Check('api_key_revocations_one_row', 'id = 1')
export class ApiKeyRevocationsEntity {
  @PrimaryColumn('smallint')
  id!: number;

  @Column('bigint')
  generation!: string;
}
