import { Injectable } from '@nestjs/common';
import { v7 as uuidv7 } from 'uuid';
import { NotFoundError, StateConflictError } from '../../platform/problem/problem.errors';
import { isUuid } from '../../platform/uuid';
import { ApiKeyHasher } from './api-key-hasher';
import type { AuthUser } from '../auth-user';
import { AuditLog } from '../audit/audit-log';
import { MissingScopeError } from '../missing-scope.error';
import { API_KEY_SCOPES } from './api-key-scope';
import { ApiKeys } from './api-keys';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeyListResponse, ApiKeyResponse, CreateApiKeyDto, CreatedApiKeyResponse } from './dto/api-key.dto';
import { ApiKeyEntity } from './entities/api-key.entity';

/** One per integration and environment is plenty; a bound on the rows one caller can make us store. */
export const MAX_API_KEYS_PER_USER = 100;
/** `mr_` and 5 characters of the random part: enough to tell a user's keys apart, 30 of the key's 256 bits. */
const PREFIX_LENGTH = 8;

/** POST, GET and DELETE /user/api-keys (docs/api.md#routes, docs/api.md#smtp-submission). */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly hasher: ApiKeyHasher,
    private readonly apiKeys: ApiKeys,
    private readonly audit: AuditLog,
  ) {}

  /**
   * A key never widens itself (docs/api.md#smtp-submission): a key makes keys only within its own scopes, and by
   * default with its own scopes; a JWT may give any, by default all three.
   */
  async create(user: AuthUser, body: CreateApiKeyDto): Promise<CreatedApiKeyResponse> {
    const own = user.apiKey?.scopes ?? API_KEY_SCOPES;
    const wider = (body.scopes ?? []).filter((scope) => !own.includes(scope));
    if (wider.length > 0) {
      throw new MissingScopeError(
        `This API key cannot make a key with the scope ${wider.join(', ')}, which it lacks; its scopes: ${own.join(', ')}.`,
      );
    }
    const { key, hash } = this.hasher.newKey();
    // Stored in the one order every list shows, however they were asked for.
    const scopes = API_KEY_SCOPES.filter((scope) => (body.scopes ?? own).includes(scope));
    const prefix = key.slice(0, PREFIX_LENGTH);
    const id = uuidv7();
    const stored = await this.keys.add(
      { id, userId: user.id, name: body.name, scopes, prefix, hash },
      MAX_API_KEYS_PER_USER,
      (manager) =>
        this.audit.record(manager, {
          by: user,
          action: 'api_key.created',
          target: { type: 'api_key', id },
          detail: { name: body.name, prefix, scopes },
        }),
    );
    if (stored === 'limit reached') {
      throw new StateConflictError(
        `You have ${MAX_API_KEYS_PER_USER} API keys, the most one user may have; delete one to add another.`,
      );
    }
    return {
      id: stored.id,
      name: stored.name,
      scopes: stored.scopes,
      prefix,
      key,
      createdAt: stored.createdAt.toISOString(),
    };
  }

  async list(userId: string): Promise<ApiKeyListResponse> {
    return { apiKeys: (await this.keys.list(userId)).map(map) };
  }

  /** A key cannot delete a key holding a scope it lacks (docs/api.md#smtp-submission); a JWT deletes any of its user's keys. */
  async remove(user: AuthUser, id: string): Promise<void> {
    const result = isUuid(id)
      ? await this.keys.remove(user.id, id, user.apiKey?.scopes, (manager) =>
          this.audit.record(manager, { by: user, action: 'api_key.deleted', target: { type: 'api_key', id } }),
        )
      : 'not found';
    if (result === 'not found') throw new NotFoundError(isUuid(id) ? `API key ${id}` : 'That API key');
    if (result !== 'deleted') {
      throw new MissingScopeError(
        `This API key cannot delete a key with the scope ${result.wider.join(', ')}, which it lacks; its scopes: ${user.apiKey!.scopes.join(', ')}.`,
      );
    }
    this.apiKeys.forgetAll();
  }
}

function map(key: ApiKeyEntity): ApiKeyResponse {
  return {
    id: key.id,
    name: key.name,
    scopes: key.scopes,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}
