import type { Request } from 'express';
import type { AppConfig } from '../../platform/config/app-config';
import { cookieOf, httpOnlyCookie } from '../http-only-cookie';

export const SESSION_COOKIE = 'mailroom_session';

/** The Set-Cookie of a new session: HttpOnly, SameSite=Lax, for the whole site, Secure behind https (docs/teams.md#signing-in). */
export function sessionCookie(token: string, config: AppConfig): string {
  return httpOnlyCookie(
    SESSION_COOKIE,
    token,
    { path: '/', maxAgeSeconds: config.teams.sessionMaxHours * 3600 },
    config,
  );
}

/** The Set-Cookie that makes the browser forget its session. */
export function clearedSessionCookie(config: AppConfig): string {
  return httpOnlyCookie(SESSION_COOKIE, '', { path: '/', maxAgeSeconds: 0 }, config);
}

/** The session cookie's value, if the request carries one. */
export function sessionCookieOf(request: Request): string | undefined {
  return cookieOf(request, SESSION_COOKIE);
}
