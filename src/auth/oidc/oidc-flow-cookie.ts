import type { Request } from 'express';
import type { AppConfig } from '../../platform/config/app-config';
import { cookieOf, httpOnlyCookie } from '../http-only-cookie';
import type { OidcFlow } from './oidc-provider-client';

export const OIDC_FLOW_COOKIE = 'mailroom_oidc';

/** Time a person has at the provider between GET /session/oidc and the callback. */
export const OIDC_FLOW_SECONDS = 600;

// Only the two OIDC routes get it back; SameSite=Lax still sends it on the provider's top-level redirect.
const PATH = '/session/oidc';
// The three values openid-client makes are base64url, 43 characters; a cookie never needs more.
const VALUE = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * The flow's state, nonce and PKCE verifier ride in the browser that started it
 * (docs/teams.md#signing-in-with-oidc): the callback may reach any API process, and only that
 * browser can finish the flow (a callback URL sent to someone else lacks the cookie).
 */
export function oidcFlowCookie(flow: OidcFlow, config: AppConfig): string {
  const value = Buffer.from(JSON.stringify([flow.state, flow.nonce, flow.codeVerifier])).toString('base64url');
  return httpOnlyCookie(OIDC_FLOW_COOKIE, value, { path: PATH, maxAgeSeconds: OIDC_FLOW_SECONDS }, config);
}

/** The Set-Cookie that ends the flow: a callback is usable once. */
export function clearedOidcFlowCookie(config: AppConfig): string {
  return httpOnlyCookie(OIDC_FLOW_COOKIE, '', { path: PATH, maxAgeSeconds: 0 }, config);
}

/** The flow the request's cookie holds; undefined when it has none or a malformed one. */
export function oidcFlowOf(request: Request): OidcFlow | undefined {
  const cookie = cookieOf(request, OIDC_FLOW_COOKIE);
  if (cookie === undefined) return undefined;
  try {
    const values: unknown = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8'));
    if (!Array.isArray(values) || values.length !== 3) return undefined;
    if (!values.every((v) => typeof v === 'string' && VALUE.test(v))) return undefined;
    const [state, nonce, codeVerifier] = values as string[];
    return { state, nonce, codeVerifier };
  } catch {
    return undefined;
  }
}
