import type { paths } from '../generated/openapi.js';
import { type Api, type BodyOf, type CallOptions, type Schemas, unwrap, type Shape } from '../request.js';

export interface CreateApiKey extends Shape<BodyOf<paths['/user/api-keys']['post']>> {}
export interface ApiKey extends Shape<Schemas['ApiKeyResponse']> {}
export interface CreatedApiKey extends Shape<Schemas['CreatedApiKeyResponse']> {}

export class ApiKeys {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** The new key is in the answer, and only there. */
  create(key: CreateApiKey, options: CallOptions = {}): Promise<CreatedApiKey> {
    return unwrap(this.api.POST('/user/api-keys', { body: key, signal: options.signal }));
  }

  /** Every key, newest first, without the keys themselves. */
  async list(options: CallOptions = {}): Promise<ApiKey[]> {
    return (await unwrap(this.api.GET('/user/api-keys', { signal: options.signal }))).apiKeys;
  }

  async remove(id: string, options: CallOptions = {}): Promise<void> {
    await unwrap(this.api.DELETE('/user/api-keys/{id}', { params: { path: { id } }, signal: options.signal }));
  }
}
