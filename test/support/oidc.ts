import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { killChild, PROJECT_ROOT } from './child-processes';
import type { TestApp } from './test-app';

/** A real OpenID Connect provider in a child process (test/support/oidc-provider.mjs). */
export interface OidcTestProvider {
  issuer: string;
  close(): Promise<void>;
}

export const OIDC_CLIENT_ID = 'mailroom-console';
export const OIDC_CLIENT_SECRET = 'a client secret of the test provider';

/** Starts the provider with this service's client, whose callback is under `publicUrl`. */
export async function startOidcProvider(publicUrl: string): Promise<OidcTestProvider> {
  const child = spawn(
    process.execPath,
    [
      join(PROJECT_ROOT, 'test/support/oidc-provider.mjs'),
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      `${publicUrl}/session/oidc/callback`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) =>
      reject(new Error(`oidc-provider.mjs exited (${code}) before it was ready:\n${stderr}`)),
    );
  });
  const { issuer } = JSON.parse(firstLine) as { issuer: string };
  return { issuer, close: () => killChild(child) };
}

/** Who the provider says the person is. */
export interface ProviderPerson {
  email: string;
  verified: boolean;
}

/** The browser's side of one sign-in: what GET /session/oidc gave it, and the callback the provider sent it to. */
export interface OidcDance {
  /** The `mailroom_oidc=…` the start route set. */
  flowCookie: string;
  /** The callback's path and query on the app, as the provider's last redirect named it. */
  callbackPath: string;
}

/**
 * Drives a browser's redirects by hand: GET /session/oidc on the app, then the provider's
 * authorization endpoint and its interaction (where `person` signs in), with the provider's cookies
 * kept between them, up to the redirect back to the app's callback (not followed).
 */
export async function danceWithProvider(
  t: TestApp,
  provider: OidcTestProvider,
  person: ProviderPerson,
): Promise<OidcDance> {
  const started = await t.http.get('/session/oidc').expect(302);
  const flowCookie = ([] as string[])
    .concat(started.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('mailroom_oidc='))
    ?.split(';')[0];
  if (!flowCookie) throw new Error('GET /session/oidc set no flow cookie');
  const callback = `${t.config.deliverability.publicUrl}/session/oidc/callback`;
  const jar = new Map<string, string>();
  let url = new URL(started.headers.location);
  for (let hop = 0; hop < 10; hop++) {
    if (url.pathname.startsWith('/interaction/')) {
      url.searchParams.set('email', person.email);
      url.searchParams.set('verified', String(person.verified));
    }
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { Cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.get('location');
    if (!location)
      throw new Error(`The provider answered ${response.status} at ${url.pathname}: ${await response.text()}`);
    const next = new URL(location, url);
    if (next.href.startsWith(callback)) return { flowCookie, callbackPath: `${next.pathname}${next.search}` };
    url = next;
  }
  throw new Error('The provider never sent the browser back to the callback');
}
