import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Database } from '../../platform/database/database';
import type { ApiKeyScope } from './api-key-scope';
import { ApiKeyEntity } from './entities/api-key.entity';

// Advisory lock space of the per-user key count (the other half of the key is the user's hash).
const KEY_COUNT_LOCK = 0x6b657973;

export type NewApiKey = Pick<ApiKeyEntity, 'id' | 'userId' | 'name' | 'scopes' | 'prefix' | 'hash'>;

/** What a deletion came to: the key is gone, there was none, or it holds scopes the deleter lacks (and was kept). */
export type RemoveResult = 'deleted' | 'not found' | { wider: ApiKeyScope[] };

/** The owner and scopes a presented key stands for. */
export interface ApiKeyHolder {
  keyId: string;
  /** The key's first characters (null for keys made before they were kept): how the audit log names it. */
  prefix: string | null;
  userId: string;
  scopes: ApiKeyScope[];
}

/** Users' API keys; every method but the look-up by hash takes the owner, so no one reaches another's. */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly database: Database) {}

  private get keys() {
    return this.database.repository(ApiKeyEntity);
  }

  list(userId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * Adds the key unless the user has `limit` keys already (counted under a per-user lock, so concurrent adds cannot pass it);
   * `also` runs in the same transaction once it is added (its audit entry).
   */
  add(
    key: NewApiKey,
    limit: number,
    also?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<ApiKeyEntity | 'limit reached'> {
    return this.database.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [KEY_COUNT_LOCK, key.userId]);
      const repository = manager.getRepository(ApiKeyEntity);
      if ((await repository.countBy({ userId: key.userId })) >= limit) return 'limit reached';
      await manager.query(
        `INSERT INTO api_keys (id, user_id, name, scopes, prefix, hash, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, date_trunc('milliseconds', clock_timestamp()))`,
        [key.id, key.userId, key.name, key.scopes, key.prefix, key.hash],
      );
      await also?.(manager);
      return repository.findOneByOrFail({ id: key.id });
    });
  }

  /**
   * Deletes the key and raises the revocation generation in one transaction, so that no process can
   * see one without the other; unless `allowed` is given and the key holds a scope outside it.
   * `also` runs in the same transaction once it is deleted (its audit entry).
   */
  remove(
    userId: string,
    id: string,
    allowed: readonly ApiKeyScope[] | undefined,
    also?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<RemoveResult> {
    return this.database.transaction(async (manager) => {
      const [key]: { scopes: ApiKeyScope[] }[] = await manager.query(
        'SELECT scopes FROM api_keys WHERE user_id = $1 AND id = $2 FOR UPDATE',
        [userId, id],
      );
      if (!key) return 'not found';
      const wider = key.scopes.filter((scope) => allowed && !allowed.includes(scope));
      if (wider.length > 0) return { wider };
      await manager.query('DELETE FROM api_keys WHERE user_id = $1 AND id = $2', [userId, id]);
      await manager.query('UPDATE api_key_revocations SET generation = generation + 1 WHERE id = 1');
      await also?.(manager);
      return 'deleted';
    });
  }

  async holderOf(hash: Buffer): Promise<ApiKeyHolder | undefined> {
    const rows: { id: string; user_id: string; prefix: string | null; scopes: ApiKeyScope[] }[] =
      await this.database.query('SELECT id, user_id, prefix, scopes FROM api_keys WHERE hash = $1', [hash]);
    return rows[0] && { keyId: rows[0].id, userId: rows[0].user_id, prefix: rows[0].prefix, scopes: rows[0].scopes };
  }

  /** The revocation generation: it changes whenever a key is deleted. */
  async revocationGeneration(): Promise<string> {
    const rows: { generation: string }[] = await this.database.query(
      'SELECT generation FROM api_key_revocations WHERE id = 1',
    );
    return rows[0].generation;
  }

  /** Records a use, unless one was recorded in the last minute (by any process). */
  async touch(id: string): Promise<void> {
    await this.database.query(
      `UPDATE api_keys SET last_used_at = date_trunc('milliseconds', clock_timestamp())
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < clock_timestamp() - interval '1 minute')`,
      [id],
    );
  }
}
