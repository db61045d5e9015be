import { SYSTEM_ACCOUNT_ID } from '../../src/auth';
import type { TestApp } from './test-app';
import { bearer } from './tokens';

export const PASSWORD = 'correct horse battery staple';

/**
 * The latest system mail (a message of SYSTEM_ACCOUNT_ID, never of the account it concerns) to
 * `email` about `accountId` (its text names the account) with `subject`.
 */
async function systemMailText(t: TestApp, accountId: string, email: string, subject: string): Promise<string> {
  const mails: { text: string }[] = await t.db.query(
    `SELECT text FROM messages WHERE user_id = $1 AND $2 = ANY(recipients) AND subject = $3 ORDER BY id DESC LIMIT 20`,
    [SYSTEM_ACCOUNT_ID, email, subject],
  );
  const named = [' ', '.'].map((end) => `Mailroom account ${accountId}${end}`);
  return mails.find((mail) => named.some((name) => mail.text.includes(name)))?.text ?? '';
}

/** The invitation token of the latest invitation mail to `email` into `accountId`. */
export async function invitationToken(t: TestApp, accountId: string, email: string): Promise<string> {
  const text = await systemMailText(t, accountId, email, 'You are invited to Mailroom');
  const token = /\/console\/invitation\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!token) throw new Error(`No invitation mail to ${email} for ${accountId}`);
  return token;
}

/** The token of the latest password reset mail to `email` for `accountId`; undefined when none came. */
export async function passwordResetToken(t: TestApp, accountId: string, email: string): Promise<string | undefined> {
  const text = await systemMailText(t, accountId, email, 'Reset your Mailroom password');
  return /\/console\/password-reset\/([A-Za-z0-9_-]{43})/.exec(text)?.[1];
}

/** The `name=value` of the session cookie a response set. */
export function sessionCookieOf(response: { headers: Record<string, unknown> }): string {
  const header = ([] as string[]).concat((response.headers['set-cookie'] as string[] | string | undefined) ?? []);
  const cookie = header.find((line) => line.startsWith('mailroom_session='));
  if (!cookie) throw new Error('No session cookie was set');
  return cookie.split(';')[0];
}

/** Invites `email` into `accountId` as `role` (with the account's JWT), accepts, and returns the member's cookie. */
export async function joinedMember(
  t: TestApp,
  accountId: string,
  email: string,
  role: string,
): Promise<{ id: string; cookie: string }> {
  const invited = await t.http.post('/user/members').set(bearer(accountId)).send({ email, role }).expect(201);
  const token = await invitationToken(t, accountId, email);
  const accepted = await t.http.post(`/invitations/${token}/accept`).send({ password: PASSWORD }).expect(200);
  return { id: invited.body.id as string, cookie: sessionCookieOf(accepted) };
}

/** The Origin header of the app's PUBLIC_URL, which cookie-authenticated changes must carry. */
export function ownOrigin(t: TestApp): { Origin: string } {
  return { Origin: new URL(t.config.deliverability.publicUrl).origin };
}
