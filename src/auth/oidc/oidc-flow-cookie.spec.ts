import type { Request } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { clearedOidcFlowCookie, oidcFlowCookie, oidcFlowOf } from './oidc-flow-cookie';

const config = (publicUrl: string) => ({ deliverability: { publicUrl } }) as AppConfig;
const requestWith = (cookie?: string) => ({ headers: cookie === undefined ? {} : { cookie } }) as Request;
const valueOf = (setCookie: string) => setCookie.split(';')[0];
const flow = { state: 's'.repeat(43), nonce: 'n'.repeat(43), codeVerifier: 'v'.repeat(43) };

// docs/teams.md#signing-in-with-oidc: the flow rides in the browser that started it.
describe('the OIDC flow cookie', () => {
  it('is HttpOnly, SameSite=Lax, for the OIDC routes only, 10 minutes, Secure behind https', () => {
    expect(oidcFlowCookie(flow, config('http://localhost:3000'))).toMatch(
      /^mailroom_oidc=[A-Za-z0-9_-]+; Path=\/session\/oidc; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
    expect(oidcFlowCookie(flow, config('https://mail.example.com'))).toMatch(/; SameSite=Lax; Secure$/);
    expect(clearedOidcFlowCookie(config('http://localhost:3000'))).toBe(
      'mailroom_oidc=; Path=/session/oidc; Max-Age=0; HttpOnly; SameSite=Lax',
    );
  });

  it('gives back the flow it holds, among other cookies', () => {
    const cookie = valueOf(oidcFlowCookie(flow, config('http://localhost:3000')));

    expect(oidcFlowOf(requestWith(`a=b; ${cookie}; mailroom_session=x`))).toEqual(flow);
  });

  it('holds values of 16 to 128 base64url characters, and nothing else', () => {
    const encoded = (values: unknown) => `mailroom_oidc=${Buffer.from(JSON.stringify(values)).toString('base64url')}`;
    const longest = ['a'.repeat(128), 'b'.repeat(128), 'c'.repeat(128)];

    expect(oidcFlowOf(requestWith(encoded(longest)))).toEqual({
      state: longest[0],
      nonce: longest[1],
      codeVerifier: longest[2],
    });
    expect(oidcFlowOf(requestWith(encoded(['a'.repeat(129), 'b'.repeat(16), 'c'.repeat(16)])))).toBeUndefined();
    expect(oidcFlowOf(requestWith(encoded(['a'.repeat(15), 'b'.repeat(16), 'c'.repeat(16)])))).toBeUndefined();
    expect(oidcFlowOf(requestWith(encoded(['a'.repeat(16), 'b'.repeat(16)])))).toBeUndefined();
    expect(oidcFlowOf(requestWith(encoded(['a/'.repeat(16), 'b'.repeat(16), 'c'.repeat(16)])))).toBeUndefined();
    expect(oidcFlowOf(requestWith(encoded({ state: 'a'.repeat(16) })))).toBeUndefined();
    expect(oidcFlowOf(requestWith('mailroom_oidc=not json at all'))).toBeUndefined();
    expect(oidcFlowOf(requestWith('mailroom_session=x'))).toBeUndefined();
    expect(oidcFlowOf(requestWith())).toBeUndefined();
  });
});
