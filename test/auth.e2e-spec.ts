import { createHmac, generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { sign } from 'jsonwebtoken';
import type { Response } from 'supertest';
import { storeMessage } from './support/factories';
import { bootTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';
import { bearer, newUserId, tokenFor } from './support/tokens';

const MESSAGES = '/user/messages';

const base64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;

/** A JWT assembled by hand, for what jsonwebtoken refuses to produce. */
function handMadeToken(header: object, payload: object, signingKey?: string): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  const signature = signingKey === undefined ? '' : createHmac('sha256', signingKey).update(unsigned).digest('base64url');
  return `${unsigned}.${signature}`;
}

/** SPEC §2 and §3: 401, the Bearer challenge, and a problem body. */
function expectInvalidToken(response: Response): void {
  expect(response.status).toBe(401);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  expect(response.body).toEqual({
    type: expect.any(String),
    title: 'Unauthorized',
    status: 401,
    detail: expect.stringMatching(/\S/),
    requestId: response.headers['x-request-id'],
  });
  expect(response.body.requestId).toMatch(/\S/);
}

/** The caller is the token's `sub`: it sees the message stored for that user. */
async function expectAcceptedAs(t: TestApp, userId: string, token: string): Promise<void> {
  const stored = await storeMessage(t.db, userId);
  const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token}`);
  expect(response.status).toBe(200);
  expect(response.body.messages.map((m: { id: string; userId: string }) => [m.id, m.userId])).toEqual([[stored.id, userId]]);
}

describe('authentication (SPEC §2)', () => {
  describe('with a shared HS256 key', () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await bootTestApp();
    });

    afterAll(() => t.close());

    it('accepts a valid token and takes the user from its sub', async () => {
      const userId = newUserId();

      await expectAcceptedAs(t, userId, tokenFor(userId));
    });

    it('accepts a sub of 255 characters', async () => {
      const userId = newUserId().padEnd(255, 'x');

      await expectAcceptedAs(t, userId, tokenFor(userId));
    });

    it('accepts a token assembled by hand, so that the hand-made refusals below fail for their own reason', async () => {
      const userId = newUserId();

      await expectAcceptedAs(t, userId, handMadeToken({ alg: 'HS256', typ: 'JWT' }, { sub: userId, exp: inTenMinutes() }, TEST_JWT_SECRET));
    });

    it('asks for a token when there is no Authorization header', async () => {
      const response = await t.http.get(MESSAGES);

      expectInvalidToken(response);
      expect(response.body.detail).toMatch(/Authorization: Bearer/);
    });

    it('says that an expired token has expired', async () => {
      const token = sign({ sub: newUserId(), exp: Math.floor(Date.now() / 1000) - 60 }, TEST_JWT_SECRET, { algorithm: 'HS256' });

      const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token}`);

      expectInvalidToken(response);
      expect(response.body.detail).toMatch(/expired/);
    });

    const refused: Array<[string, () => string]> = [
      ['garbage after Bearer', () => 'Bearer garbage'],
      ['an empty Bearer', () => 'Bearer '],
      ['a valid token under another scheme', () => `Basic ${tokenFor(newUserId())}`],
      ['a token signed with another HS256 key', () => `Bearer ${sign({}, `${TEST_JWT_SECRET}-other`, { algorithm: 'HS256', subject: newUserId(), expiresIn: 600 })}`],
      ['an alg "none" token', () => `Bearer ${handMadeToken({ alg: 'none', typ: 'JWT' }, { sub: newUserId(), exp: inTenMinutes() })}`],
      ['an alg "none" token with the signature of a valid one', () => {
        const valid = tokenFor(newUserId()).split('.');
        return `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${valid[1]}.${valid[2]}`;
      }],
      ['an HS512 token signed with the right key (algorithm not configured)', () => `Bearer ${tokenFor(newUserId(), { algorithm: 'HS512' })}`],
      ['a token whose payload was changed after signing', () => {
        const [header, , signature] = tokenFor('user-a').split('.');
        return `Bearer ${header}.${base64url({ sub: 'user-b', exp: inTenMinutes() })}.${signature}`;
      }],
      ['a token without exp', () => `Bearer ${sign({ sub: newUserId() }, TEST_JWT_SECRET, { algorithm: 'HS256' })}`],
      ['a token whose exp is not a number', () => `Bearer ${handMadeToken({ alg: 'HS256', typ: 'JWT' }, { sub: newUserId(), exp: String(inTenMinutes()) }, TEST_JWT_SECRET)}`],
      ['a token that is not valid yet (nbf)', () => `Bearer ${tokenFor(newUserId(), { notBefore: 3600 })}`],
      ['a token without sub', () => `Bearer ${sign({}, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`],
      ['a token with an empty sub', () => `Bearer ${sign({ sub: '' }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`],
      ['a token with a numeric sub', () => `Bearer ${sign({ sub: 42 }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`],
      ['a token with a sub of 256 characters', () => `Bearer ${tokenFor('u'.repeat(256))}`],
      ['a token with a NUL in its sub', () => `Bearer ${tokenFor('user\u0000admin')}`],
      ['a token with a line break in its sub', () => `Bearer ${tokenFor('user\nadmin')}`],
    ];

    it.each(refused)('refuses %s', async (_case, authorization) => {
      const response = await t.http.get(MESSAGES).set('Authorization', authorization());

      expectInvalidToken(response);
    });

    it('does not reveal a message to a refused token', async () => {
      const userId = newUserId();
      const stored = await storeMessage(t.db, userId);
      const forged = sign({}, `${TEST_JWT_SECRET}-other`, { algorithm: 'HS256', subject: userId, expiresIn: 600 });

      const response = await t.http.get(`${MESSAGES}/${stored.id}`).set('Authorization', `Bearer ${forged}`);

      expectInvalidToken(response);
      expect(JSON.stringify(response.body)).not.toContain(stored.subject);
    });
  });

  describe('with JWT_ISSUER and JWT_AUDIENCE', () => {
    const issuer = 'https://issuer.example.test/';
    const audience = 'mailroom-api';
    let t: TestApp;

    beforeAll(async () => {
      t = await bootTestApp({ JWT_ISSUER: issuer, JWT_AUDIENCE: audience });
    });

    afterAll(() => t.close());

    it('accepts a token with the right iss and aud', async () => {
      const userId = newUserId();

      await expectAcceptedAs(t, userId, tokenFor(userId, { issuer, audience }));
    });

    it('accepts a token whose aud lists the configured audience among others', async () => {
      const userId = newUserId();

      await expectAcceptedAs(t, userId, tokenFor(userId, { issuer, audience: ['another-api', audience] }));
    });

    it.each([
      ['a wrong iss', { issuer: 'https://evil.example.test/', audience }],
      ['a wrong aud', { issuer, audience: 'another-api' }],
      ['no iss', { audience }],
      ['no aud', { issuer }],
    ])('refuses a token with %s', async (_case, claims) => {
      const response = await t.http.get(MESSAGES).set(bearer(newUserId(), claims));

      expectInvalidToken(response);
    });
  });

  describe('with JWT_JWKS_URL', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = (key: KeyObject, kid: string, alg: string) => ({ ...key.export({ format: 'jwk' }), kid, alg, use: 'sig' });
    const jwks = { keys: [jwk(rsa.publicKey, 'rsa-1', 'RS256'), jwk(ec.publicKey, 'ec-1', 'ES256')] };

    let server: Server;
    let t: TestApp;

    beforeAll(async () => {
      server = createServer((request, response) => {
        if (request.url !== '/jwks.json') {
          response.writeHead(404).end();
          return;
        }
        response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(jwks));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      t = await bootTestApp({ JWT_SECRET: '', JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` });
    });

    afterAll(async () => {
      await t?.close();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    });

    it('verifies with the published keys, not a shared secret', () => {
      expect(t.config.auth.verification).toMatchObject({ kind: 'jwks', algorithms: ['RS256', 'ES256'] });
    });

    it('accepts an RS256 token signed with a published key', async () => {
      const userId = newUserId();
      const token = sign({}, rsa.privateKey, { algorithm: 'RS256', keyid: 'rsa-1', subject: userId, expiresIn: 600 });

      await expectAcceptedAs(t, userId, token);
    });

    it('accepts an ES256 token signed with a published key', async () => {
      const userId = newUserId();
      const token = sign({}, ec.privateKey, { algorithm: 'ES256', keyid: 'ec-1', subject: userId, expiresIn: 600 });

      await expectAcceptedAs(t, userId, token);
    });

    const publicPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const refused: Array<[string, () => string]> = [
      ['an HS256 token keyed with the RSA public key (algorithm confusion)', () =>
        handMadeToken({ alg: 'HS256', typ: 'JWT', kid: 'rsa-1' }, { sub: newUserId(), exp: inTenMinutes() }, publicPem)],
      ['an HS256 token signed with the test secret', () => tokenFor(newUserId())],
      ['an RS256 token signed with a key not in the set', () =>
        sign({}, stranger.privateKey, { algorithm: 'RS256', keyid: 'stranger-1', subject: newUserId(), expiresIn: 600 })],
      ['an RS256 token signed with another key under a published kid', () =>
        sign({}, stranger.privateKey, { algorithm: 'RS256', keyid: 'rsa-1', subject: newUserId(), expiresIn: 600 })],
      ['an RS384 token signed with a published key (algorithm not configured)', () =>
        sign({}, rsa.privateKey, { algorithm: 'RS384', keyid: 'rsa-1', subject: newUserId(), expiresIn: 600 })],
      ['an alg "none" token with a published kid', () =>
        handMadeToken({ alg: 'none', typ: 'JWT', kid: 'rsa-1' }, { sub: newUserId(), exp: inTenMinutes() })],
      ['an expired RS256 token', () =>
        sign({ exp: Math.floor(Date.now() / 1000) - 60 }, rsa.privateKey, { algorithm: 'RS256', keyid: 'rsa-1', subject: newUserId() })],
      ['an RS256 token without exp', () => sign({}, rsa.privateKey, { algorithm: 'RS256', keyid: 'rsa-1', subject: newUserId() })],
    ];

    it.each(refused)('refuses %s', async (_case, token) => {
      const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token()}`);

      expectInvalidToken(response);
    });
  });

  describe('when the identity provider\'s keys cannot be fetched', () => {
    it('answers 503 without naming the provider, not 401', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const { port } = closed.address() as AddressInfo;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const t = await bootTestApp({ JWT_SECRET: '', JWT_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` });
      try {
        const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
        const token = sign({}, privateKey, { algorithm: 'RS256', keyid: 'k1', subject: newUserId(), expiresIn: 600 });
        const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token}`).expect(503);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.body.detail).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
        expect(response.headers['www-authenticate']).toBeUndefined();
      } finally {
        await t.close();
      }
    });
  });
});
