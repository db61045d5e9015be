import type { ApiKeyScope } from './api-keys/api-key-scope';

/** The caller, as the bearer guard established it: the JWT's `sub`, or the owner of the API key. */
export interface AuthUser {
  id: string;
  /** Set when the caller came with an API key, which allows only its scopes; a JWT allows every one. */
  apiKey?: { id: string; prefix: string | null; scopes: ApiKeyScope[] };
  /** The address the request came from (TRUST_PROXY): what the audit log records of the change it makes. */
  clientAddress: string;
}
