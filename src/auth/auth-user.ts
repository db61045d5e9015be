import type { ApiKeyScope } from './api-keys/api-key-scope';
import type { MemberRole } from './members/member-role';

/** The caller, as the bearer guard established it: the JWT's `sub`, the owner of the API key, or a member's account. */
export interface AuthUser {
  id: string;
  /** Set when the caller came with an API key, which allows only its scopes; a JWT allows every one. */
  apiKey?: { id: string; prefix: string | null; scopes: ApiKeyScope[] };
  /** The address the request came from (TRUST_PROXY): what the audit log records of the change it makes. */
  clientAddress: string;
  /** Set when the caller came with a console session (docs/teams.md#signing-in): the member and its role. */
  member?: { id: string; email: string; role: MemberRole; sessionId: string };
}
