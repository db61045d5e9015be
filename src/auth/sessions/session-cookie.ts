import type { Request } from 'express';
import type { AppConfig } from '../../platform/config/app-config';

export const SESSION_COOKIE = 'mailroom_session';

/** The Set-Cookie of a new session: HttpOnly, SameSite=Lax, for the whole site, Secure behind https (docs/teams.md#signing-in). */
export function sessionCookie(token: string, config: AppConfig): string {
  return cookie(`${SESSION_COOKIE}=${token}`, config.teams.sessionMaxHours * 3600, config);
}

/** The Set-Cookie that makes the browser forget its session. */
export function clearedSessionCookie(config: AppConfig): string {
  return cookie(`${SESSION_COOKIE}=`, 0, config);
}

function cookie(pair: string, maxAgeSeconds: number, config: AppConfig): string {
  const secure = config.deliverability.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${pair}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The session cookie's value, if the request carries one (the first, as browsers send the most specific first). */
export function sessionCookieOf(request: Request): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) return part.slice(at + 1).trim();
  }
  return undefined;
}
