import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { NotFoundError, StateConflictError } from '../../common/problem/problem.errors';
import { isUuid } from '../../common/uuid';
import { ApiKeyHasher } from './api-key-hasher';
import { API_KEY_SCOPES } from './api-key-scope';
import { ApiKeys } from './api-keys';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyListResponse, ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';
import { ApiKeyEntity } from './entities/api-key.entity';

/** One per integration and environment is plenty; a bound on the rows one caller can make us store. */
export const MAX_API_KEYS_PER_USER = 100;

/** POST, GET and DELETE /user/api-keys (SPEC §6, §10). */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly hasher: ApiKeyHasher,
    private readonly apiKeys: ApiKeys,
  ) {}

  async create(userId: string, body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    const { key, hash } = this.hasher.newKey();
    // Stored in the one order every list shows, however they were asked for.
    const scopes = API_KEY_SCOPES.filter((scope) => (body.scopes ?? API_KEY_SCOPES).includes(scope));
    const stored = await this.keys.add({ id: uuidv7(), userId, name: body.name, scopes, hash }, MAX_API_KEYS_PER_USER);
    if (stored === 'limit reached') {
      throw new StateConflictError(`You have ${MAX_API_KEYS_PER_USER} API keys, the most one user may have; delete one to add another.`);
    }
    return { id: stored.id, name: stored.name, scopes: stored.scopes, key, createdAt: stored.createdAt.toISOString() };
  }

  async list(userId: string): Promise<ApiKeyListResponse> {
    return { apiKeys: (await this.keys.list(userId)).map(map) };
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.keys.remove(userId, id))) throw new NotFoundError(isUuid(id) ? `API key ${id}` : 'That API key');
    this.apiKeys.forgetAll();
  }
}

function map(key: ApiKeyEntity): ApiKeyResponse {
  return { id: key.id, name: key.name, scopes: key.scopes, createdAt: key.createdAt.toISOString(), lastUsedAt: key.lastUsedAt?.toISOString() ?? null };
}
