import { Injectable } from '@nestjs/common';
import { EntityManager, Raw } from 'typeorm';
import { Database } from '../../platform/database/database';
import { IdempotencyKeyEntity } from './entities/idempotency-key.entity';

export const KEY_LIFETIME = '24 hours';

/** A key's stored use: the request's fingerprint and the answer given to it. */
export interface StoredKey {
  requestHash: Buffer;
  response: unknown;
}

/** The idempotency_keys table: the answers of keyed sends for KEY_LIFETIME. */
@Injectable()
export class IdempotencyKeysRepository {
  constructor(private readonly database: Database) {}

  /** The key's use in the last KEY_LIFETIME, read in the caller's transaction. */
  async findLive(manager: EntityManager, userId: string, key: string): Promise<StoredKey | undefined> {
    const found = await manager.findOne(IdempotencyKeyEntity, {
      select: { requestHash: true, response: true },
      // The database's clock, like the one that wrote created_at.
      where: { userId, key, createdAt: Raw((column) => `${column} > now() - interval '${KEY_LIFETIME}'`) },
    });
    return found ?? undefined;
  }

  /** Stores the answer in the caller's transaction; an expired use of the same key is replaced. */
  async store(
    manager: EntityManager,
    userId: string,
    key: string,
    requestHash: Buffer,
    response: unknown,
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .insert()
      .into(IdempotencyKeyEntity)
      .values({ userId, key, requestHash, response: response as object, createdAt: () => 'now()' })
      .orUpdate(['request_hash', 'response', 'created_at'], ['user_id', 'key'])
      .execute();
  }

  /** Deletes up to `batch` keys past their lifetime; returns how many. */
  async deleteExpired(batch: number): Promise<number> {
    // Raw: a batched DELETE (by ctid, with LIMIT) is beyond TypeORM's delete().
    const [, count]: [unknown, number] = await this.database.query(
      `DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM idempotency_keys WHERE created_at <= now() - interval '${KEY_LIFETIME}' LIMIT ${batch}))`,
    );
    return count;
  }
}
