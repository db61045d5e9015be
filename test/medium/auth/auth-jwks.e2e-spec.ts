// Authentication with an identity provider's keys (JWT_JWKS_URL, docs/api.md#authentication): RS256 and ES256 tokens
// checked against a real JWKS endpoint, and a 503 when its keys cannot be fetched.
import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { sign } from 'jsonwebtoken';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId, tokenFor } from '../../support/tokens';

import {
  expectAcceptedAs,
  expectInvalidToken,
  handMadeToken,
  inTenMinutes,
  MESSAGES,
  withUnknownCrit,
} from '../../support/jwt-checks';

describe('authentication with JWT_JWKS_URL (docs/api.md#authentication)', () => {
  describe('with JWT_JWKS_URL', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = (key: KeyObject, kid: string, alg: string) => ({
      ...key.export({ format: 'jwk' }),
      kid,
      alg,
      use: 'sig',
    });
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
      [
        'an HS256 token keyed with the RSA public key (algorithm confusion)',
        () =>
          handMadeToken(
            { alg: 'HS256', typ: 'JWT', kid: 'rsa-1' },
            { sub: newUserId(), exp: inTenMinutes() },
            publicPem,
          ),
      ],
      ['an HS256 token signed with the test secret', () => tokenFor(newUserId())],
      [
        'an RS256 token signed with a key not in the set',
        () =>
          sign({}, stranger.privateKey, {
            algorithm: 'RS256',
            keyid: 'stranger-1',
            subject: newUserId(),
            expiresIn: 600,
          }),
      ],
      [
        'an RS256 token signed with another key under a published kid',
        () =>
          sign({}, stranger.privateKey, { algorithm: 'RS256', keyid: 'rsa-1', subject: newUserId(), expiresIn: 600 }),
      ],
      [
        'an RS384 token signed with a published key (algorithm not configured)',
        () => sign({}, rsa.privateKey, { algorithm: 'RS384', keyid: 'rsa-1', subject: newUserId(), expiresIn: 600 }),
      ],
      [
        'an alg "none" token with a published kid',
        () => handMadeToken({ alg: 'none', typ: 'JWT', kid: 'rsa-1' }, { sub: newUserId(), exp: inTenMinutes() }),
      ],
      [
        'an expired RS256 token',
        () =>
          sign({ exp: Math.floor(Date.now() / 1000) - 60 }, rsa.privateKey, {
            algorithm: 'RS256',
            keyid: 'rsa-1',
            subject: newUserId(),
          }),
      ],
      [
        'an RS256 token without exp',
        () => sign({}, rsa.privateKey, { algorithm: 'RS256', keyid: 'rsa-1', subject: newUserId() }),
      ],
      [
        'an RS256 token whose header marks an unknown extension critical',
        () =>
          sign({}, rsa.privateKey, {
            algorithm: 'RS256',
            keyid: 'rsa-1',
            subject: newUserId(),
            expiresIn: 600,
            header: withUnknownCrit('RS256'),
          }),
      ],
    ];

    it.each(refused)('refuses %s', async (_case, token) => {
      const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token()}`);

      expectInvalidToken(response);
    });
  });

  describe("when the identity provider's keys cannot be fetched", () => {
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
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      } finally {
        await t.close();
      }
    });
  });
});
