import { api, unwrap } from './client';

/**
 * A forgotten password (docs/teams.md#password-reset): neither call signs in, so nothing of the
 * session or the query cache changes; each rejects with the API's refusal (a 400 for what it cannot
 * take, a 404 for a link used, expired or never sent).
 */

/** POST /password-reset: 202 whether or not the address is a member's; a link by mail if it is. */
export async function requestPasswordReset(email: string): Promise<void> {
  await unwrap(api.POST('/password-reset', { body: { email } }));
}

/** POST /password-reset/{token}: 204, the new password set and every session of the member ended. */
export async function resetPassword(token: string, password: string): Promise<void> {
  await unwrap(api.POST('/password-reset/{token}', { params: { path: { token } }, body: { password } }));
}
