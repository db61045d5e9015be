import type { Request } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { clearedSessionCookie, sessionCookie, sessionCookieOf } from './session-cookie';

const config = (PUBLIC_URL: string) =>
  AppConfig.fromEnvironment({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32), PUBLIC_URL });

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the whole site, and lives SESSION_MAX_HOURS', () => {
    expect(sessionCookie('abc', config('http://localhost:3000'))).toBe(
      'mailroom_session=abc; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax',
    );
  });

  it('is Secure when PUBLIC_URL is https', () => {
    expect(sessionCookie('abc', config('https://mail.example.com'))).toMatch(/; Secure$/);
    expect(clearedSessionCookie(config('https://mail.example.com'))).toBe(
      'mailroom_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('is read from among other cookies, and absent when not sent', () => {
    const request = (cookie?: string) => ({ headers: { cookie } }) as Request;

    expect(sessionCookieOf(request('a=1; mailroom_session=xyz; b=2'))).toBe('xyz');
    expect(sessionCookieOf(request('a=1'))).toBeUndefined();
    expect(sessionCookieOf(request())).toBeUndefined();
  });
});
