import type { Request } from 'express';
import type { AppConfig } from '../platform/config/app-config';

/**
 * The Set-Cookie of auth's cookies (the session's, the OIDC flow's; docs/teams.md#signing-in):
 * HttpOnly, SameSite=Lax, Secure when PUBLIC_URL is https; an empty value with Max-Age 0 forgets it.
 */
export function httpOnlyCookie(
  name: string,
  value: string,
  { path, maxAgeSeconds }: { path: string; maxAgeSeconds: number },
  config: AppConfig,
): string {
  const secure = config.deliverability.publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${name}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The value of the request's cookie `name` (the first, as browsers send the most specific first). */
export function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
