/**
 * What an API key may do (docs/api.md#smtp-submission): `send` mail (and change what is delivered), `read` what was
 * sent, manage `keys` and other credentials. A JWT caller has every scope.
 */
export const API_KEY_SCOPES = ['send', 'read', 'keys'] as const;

export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];
