// Signing in with an OpenID Connect provider (docs/teams.md#signing-in-with-oidc), against a real
// provider (oidc-provider, in a child process): the redirect with PKCE, state and nonce, the
// provider's own redirects followed by hand, and the callback that signs in the member of the ID
// token's verified email (accepting its invitation), or shows a page saying why not.
import { randomInt } from 'node:crypto';
import { invitationToken, joinedMember, PASSWORD, sessionCookieOf } from '../../support/members';
import {
  danceWithProvider,
  OIDC_CLIENT_ID,
  OIDC_CLIENT_SECRET,
  startOidcProvider,
  type OidcTestProvider,
} from '../../support/oidc';
import { bootTestApp, type TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const PUBLIC_URL = 'http://mailroom.test';

interface Entry {
  actor: { type: string; id: string; label: string };
  action: string;
  target: { type: string; id: string };
  clientAddress: string;
  detail: Record<string, unknown>;
}

describe('sign-in with OIDC', () => {
  let provider: OidcTestProvider;
  let t: TestApp;

  beforeAll(async () => {
    provider = await startOidcProvider(PUBLIC_URL);
    t = await bootTestApp({
      PUBLIC_URL,
      TRUST_PROXY: '127.0.0.1,::1',
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
    });
  });

  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** A client address no other test is (TRUST_PROXY names the loopback as a proxy). */
  const client = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  const address = () => `${newUserId('m')}@example.com`;
  const entries = async (account: string): Promise<Entry[]> =>
    (await t.http.get('/user/audit-log?take=100').set(bearer(account)).expect(200)).body.entries;
  const callback = (dance: { flowCookie: string; callbackPath: string }, from = client()) =>
    t.http.get(dance.callbackPath).set('Cookie', dance.flowCookie).set('X-Forwarded-For', from);

  /** The page of a refused sign-in: HTML without any script, a way back to the console, no session. */
  const expectRefusalPage = (
    response: { status: number; headers: Record<string, string>; text: string },
    status: number,
    says: RegExp,
  ) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(response.headers['content-security-policy']).not.toMatch(/script-src|unsafe-inline/);
    expect(response.text).not.toMatch(/<script/i);
    expect(response.text).toMatch(says);
    expect(response.text).toContain('href="/console/"');
    expect(String(response.headers['set-cookie'] ?? '')).not.toContain('mailroom_session=');
  };

  it('says which ways to sign in there are', async () => {
    await t.http.get('/session/methods').expect(200, { password: true, oidc: true });
  });

  it('redirects to the provider with PKCE (S256), state and nonce, kept in a short-lived HttpOnly cookie', async () => {
    const started = await t.http.get('/session/oidc').expect(302);

    const location = new URL(started.headers.location);
    expect(location.origin).toBe(provider.issuer);
    const params = Object.fromEntries(location.searchParams);
    expect(params).toEqual(
      expect.objectContaining({
        client_id: OIDC_CLIENT_ID,
        response_type: 'code',
        redirect_uri: `${PUBLIC_URL}/session/oidc/callback`,
        code_challenge_method: 'S256',
        scope: 'openid email',
      }),
    );
    for (const name of ['code_challenge', 'state', 'nonce']) expect(params[name]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = ([] as string[]).concat(started.headers['set-cookie']).find((c) => c.startsWith('mailroom_oidc='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/session\/oidc/);
    expect(cookie).toMatch(/; Max-Age=600/);
    // The verifier stays in the browser's cookie; the provider only ever sees its challenge.
    expect(started.headers.location).not.toContain(cookie.split(';')[0].split('=')[1]);
  });

  it('signs in an active member: a new session cookie, on to the console, and GET /session names it', async () => {
    const account = newUserId('team');
    const email = address();
    const { id } = await joinedMember(t, account, email, 'admin');
    const from = client();

    const dance = await danceWithProvider(t, provider, { email: email.toUpperCase(), verified: true });
    const signedIn = await callback(dance, from).expect(302);

    expect(signedIn.headers.location).toBe('/console/');
    const cookie = sessionCookieOf(signedIn);
    const session = await t.http.get('/session').set('Cookie', cookie).expect(200);
    expect(session.body).toEqual({
      member: expect.objectContaining({ id, email, role: 'admin', status: 'active' }),
      account: { userId: account },
      role: 'admin',
      accounts: [{ userId: account, role: 'admin' }],
    });
    expect(session.body.member.lastSignInAt).not.toBeNull();
    // The flow is over: its cookie is cleared with the answer.
    expect(String(signedIn.headers['set-cookie'])).toMatch(/mailroom_oidc=; Path=\/session\/oidc; Max-Age=0/);
    const [latest] = await entries(account);
    expect(latest).toEqual(
      expect.objectContaining({
        action: 'member.signed_in',
        actor: { type: 'member', id, label: email },
        clientAddress: from,
        detail: { method: 'oidc' },
      }),
    );
  });

  it('accepts a pending invitation of the address: the member is active, has joined, needs no password', async () => {
    const account = newUserId('team');
    const email = address();
    const invited = await t.http.post('/user/members').set(bearer(account)).send({ email, role: 'viewer' }).expect(201);
    const token = await invitationToken(t, account, email);
    const from = client();

    const signedIn = await callback(await danceWithProvider(t, provider, { email, verified: true }), from).expect(302);

    const session = await t.http.get('/session').set('Cookie', sessionCookieOf(signedIn)).expect(200);
    expect(session.body.member).toEqual(
      expect.objectContaining({ id: invited.body.id, status: 'active', role: 'viewer' }),
    );
    expect(session.body.member.joinedAt).not.toBeNull();
    // Accepted once: the mailed link is used up.
    await t.http.post(`/invitations/${token}/accept`).send({ password: PASSWORD }).expect(404);
    const actions = (await entries(account)).reverse().map((e) => [e.action, e.clientAddress, e.actor.id]);
    expect(actions).toEqual([
      ['member.invited', expect.any(String), account],
      ['member.joined', from, invited.body.id],
      ['member.signed_in', from, invited.body.id],
    ]);
    // A password sign-in is still impossible: none was ever set.
    await t.http.post('/session').set('X-Forwarded-For', client()).send({ email, password: PASSWORD }).expect(401);
  });

  it('signs a person of several accounts in to its first active membership, accepting its other invitations', async () => {
    const [first, second] = [newUserId('team'), newUserId('team')];
    const email = address();
    const joined = await joinedMember(t, first, email, 'developer');
    const invited = await t.http.post('/user/members').set(bearer(second)).send({ email, role: 'viewer' }).expect(201);

    const signedIn = await callback(await danceWithProvider(t, provider, { email, verified: true })).expect(302);

    const session = await t.http.get('/session').set('Cookie', sessionCookieOf(signedIn)).expect(200);
    expect(session.body).toEqual(expect.objectContaining({ account: { userId: first }, role: 'developer' }));
    expect(session.body.member.id).toBe(joined.id);
    const members = (await t.http.get('/user/members').set(bearer(second)).expect(200)).body.members;
    expect(members).toEqual([expect.objectContaining({ id: invited.body.id, status: 'active' })]);
    expect((await entries(second)).map((e) => e.action)).toEqual(['member.joined', 'member.invited']);
  });

  it('refuses an address the provider has not verified, and records the failure in its account', async () => {
    const account = newUserId('team');
    const email = address();
    const { id } = await joinedMember(t, account, email, 'developer');
    const from = client();

    const refused = await callback(await danceWithProvider(t, provider, { email, verified: false }), from);

    expectRefusalPage(refused, 403, /not verified/);
    const [latest] = await entries(account);
    expect(latest).toEqual(
      expect.objectContaining({
        action: 'member.sign_in_failed',
        actor: { type: 'member', id, label: email },
        clientAddress: from,
        detail: { method: 'oidc', reason: 'email_not_verified' },
      }),
    );
  });

  it('refuses an address that no account has, with a page saying there is no invitation', async () => {
    const refused = await callback(await danceWithProvider(t, provider, { email: address(), verified: true }));

    expectRefusalPage(refused, 403, /No invitation for this address/);
  });

  it('refuses a callback whose state is not the flow’s, one without the flow cookie, and a replayed one', async () => {
    const email = address();
    await joinedMember(t, newUserId('team'), email, 'viewer');

    const forged = await danceWithProvider(t, provider, { email, verified: true });
    const url = new URL(forged.callbackPath, PUBLIC_URL);
    url.searchParams.set('state', 'A'.repeat(43));
    expectRefusalPage(
      await callback({ ...forged, callbackPath: `${url.pathname}${url.search}` }),
      400,
      /sign-in failed/,
    );

    const elsewhere = await danceWithProvider(t, provider, { email, verified: true });
    expectRefusalPage(await t.http.get(elsewhere.callbackPath), 400, /sign-in failed/);

    const used = await danceWithProvider(t, provider, { email, verified: true });
    await callback(used).expect(302);
    // The same answer again, even with the flow's cookie kept: the provider's code is spent.
    expectRefusalPage(await callback(used), 400, /sign-in failed/);
  });

  it('answers a provider that is not answering with a page, not a 500', async () => {
    const down = await bootTestApp({
      PUBLIC_URL,
      OIDC_ISSUER: 'http://127.0.0.1:9',
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
    });
    try {
      expectRefusalPage(await down.http.get('/session/oidc'), 502, /not answering/);
    } finally {
      await down.close();
    }
  });
});

describe('sign-in with OIDC, not configured', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  it('offers only the password, and both routes are 404 problems', async () => {
    await t.http.get('/session/methods').expect(200, { password: true, oidc: false });
    for (const path of ['/session/oidc', '/session/oidc/callback?code=x&state=y']) {
      const response = await t.http.get(path).expect(404);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.detail).toBe('Sign-in with OpenID Connect (not configured here) does not exist.');
    }
  });
});
