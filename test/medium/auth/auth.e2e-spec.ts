import { AddressInfo, connect } from 'node:net';
import { sign } from 'jsonwebtoken';
import { sendBody, storeMessage } from '../../support/factories';
import { noConnectionsWithin, withTimeout } from '../../support/sockets';
import { bootTestApp, TEST_JWT_SECRET, TestApp } from '../../support/test-app';
import { bearer, newUserId, tokenFor } from '../../support/tokens';
import {
  base64url,
  expectAcceptedAs,
  expectInvalidToken,
  handMadeToken,
  inTenMinutes,
  MESSAGES,
  withUnknownCrit,
} from '../../support/jwt-checks';

describe('authentication (docs/api.md#authentication)', () => {
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

      await expectAcceptedAs(
        t,
        userId,
        handMadeToken({ alg: 'HS256', typ: 'JWT' }, { sub: userId, exp: inTenMinutes() }, TEST_JWT_SECRET),
      );
    });

    it('asks for a token when there is no Authorization header', async () => {
      const response = await t.http.get(MESSAGES);

      expectInvalidToken(response);
      expect(response.body.detail).toMatch(/Authorization: Bearer/);
    });

    it('says that an expired token has expired', async () => {
      const token = sign({ sub: newUserId(), exp: Math.floor(Date.now() / 1000) - 60 }, TEST_JWT_SECRET, {
        algorithm: 'HS256',
      });

      const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token}`);

      expectInvalidToken(response);
      expect(response.body.detail).toMatch(/expired/);
    });

    const refused: Array<[string, () => string]> = [
      ['garbage after Bearer', () => 'Bearer garbage'],
      ['an empty Bearer', () => 'Bearer '],
      ['a valid token under another scheme', () => `Basic ${tokenFor(newUserId())}`],
      [
        'a token signed with another HS256 key',
        () =>
          `Bearer ${sign({}, `${TEST_JWT_SECRET}-other`, { algorithm: 'HS256', subject: newUserId(), expiresIn: 600 })}`,
      ],
      [
        'an alg "none" token',
        () => `Bearer ${handMadeToken({ alg: 'none', typ: 'JWT' }, { sub: newUserId(), exp: inTenMinutes() })}`,
      ],
      [
        'an alg "none" token with the signature of a valid one',
        () => {
          const valid = tokenFor(newUserId()).split('.');
          return `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${valid[1]}.${valid[2]}`;
        },
      ],
      [
        'an HS512 token signed with the right key (algorithm not configured)',
        () => `Bearer ${tokenFor(newUserId(), { algorithm: 'HS512' })}`,
      ],
      [
        'a token whose payload was changed after signing',
        () => {
          const [header, , signature] = tokenFor('user-a').split('.');
          return `Bearer ${header}.${base64url({ sub: 'user-b', exp: inTenMinutes() })}.${signature}`;
        },
      ],
      ['a token without exp', () => `Bearer ${sign({ sub: newUserId() }, TEST_JWT_SECRET, { algorithm: 'HS256' })}`],
      [
        'a token whose exp is not a number',
        () =>
          `Bearer ${handMadeToken({ alg: 'HS256', typ: 'JWT' }, { sub: newUserId(), exp: String(inTenMinutes()) }, TEST_JWT_SECRET)}`,
      ],
      ['a token that is not valid yet (nbf)', () => `Bearer ${tokenFor(newUserId(), { notBefore: 3600 })}`],
      ['a token without sub', () => `Bearer ${sign({}, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`],
      [
        'a token with an empty sub',
        () => `Bearer ${sign({ sub: '' }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`,
      ],
      [
        'a token with a numeric sub',
        () => `Bearer ${sign({ sub: 42 }, TEST_JWT_SECRET, { algorithm: 'HS256', expiresIn: 600 })}`,
      ],
      ['a token with a sub of 256 characters', () => `Bearer ${tokenFor('u'.repeat(256))}`],
      ['a token with a NUL in its sub', () => `Bearer ${tokenFor('user\u0000admin')}`],
      ['a token with a line break in its sub', () => `Bearer ${tokenFor('user\nadmin')}`],
      // RFC 7515 §4.1.11: an extension marked critical that the service does not understand.
      [
        'a token whose header marks an unknown extension critical',
        () => `Bearer ${tokenFor(newUserId(), { header: withUnknownCrit('HS256') })}`,
      ],
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

    describe('oversized tokens', () => {
      // Node refuses request headers over 16 KiB in all (its default --max-http-header-size).
      const NODE_HEADER_LIMIT = 16 * 1024;
      const junk = 'j'.repeat(10 * 1024);

      it('accepts a correctly signed token of about 10 KB: big, but under the header limit', async () => {
        const userId = newUserId();
        const token = sign({ junk }, TEST_JWT_SECRET, { algorithm: 'HS256', subject: userId, expiresIn: 600 });
        expect(token.length).toBeGreaterThan(10 * 1024);
        expect(token.length).toBeLessThan(NODE_HEADER_LIMIT - 2048);

        await expectAcceptedAs(t, userId, token);
      });

      it('refuses a token of about 10 KB signed with another key with 401, and does not echo it', async () => {
        const token = sign({ junk }, `${TEST_JWT_SECRET}-other`, {
          algorithm: 'HS256',
          subject: newUserId(),
          expiresIn: 600,
        });

        const response = await t.http.get(MESSAGES).set('Authorization', `Bearer ${token}`);

        expectInvalidToken(response);
        expect(JSON.stringify(response.body)).not.toContain(junk.slice(0, 100));
      });

      it('answers an Authorization header over 16 KiB with 431 as problem+json, closing the connection', async () => {
        const response = await t.http
          .get(MESSAGES)
          .set('Authorization', `Bearer ${'a'.repeat(NODE_HEADER_LIMIT + 1024)}`)
          .timeout(5000);

        expect(response.status).toBe(431);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(response.headers.connection).toBe('close');
        expect(response.body).toEqual({
          type: expect.any(String),
          title: 'Request Header Fields Too Large',
          status: 431,
          detail: expect.stringMatching(/\S/),
          requestId: expect.stringMatching(/\S/),
        });
        // The server still serves the next request.
        const userId = newUserId();
        await expectAcceptedAs(t, userId, tokenFor(userId));
      });

      it('closes its end after the 431 even when the client keeps its own end open', async () => {
        const server = t.app.getHttpServer();
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        const { port } = server.address() as AddressInfo;
        // allowHalfOpen: the client never closes its side, as a careless or hostile client may not.
        const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
        try {
          const received: Buffer[] = [];
          socket.on('data', (chunk: Buffer) => received.push(chunk));
          socket.on('error', () => undefined);
          const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()));
          socket.write(
            `GET ${MESSAGES} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${'a'.repeat(NODE_HEADER_LIMIT + 1024)}\r\n\r\n`,
          );

          await expect(withTimeout(ended, 5000, 'the server never ended the response')).resolves.toBeUndefined();
          const raw = Buffer.concat(received).toString();
          expect(raw).toMatch(/^HTTP\/1\.1 431 /);
          expect(raw).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/i);
          expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 431 });
          // The server must not hold the socket until the client goes away: each such request would
          // keep a file descriptor, and a graceful shutdown (server.close) would wait for it.
          expect(await noConnectionsWithin(server, 3000)).toBe(true);
        } finally {
          socket.destroy();
          await new Promise<void>((resolve) => server.close(() => resolve()));
        }
      });
    });
  });

  describe('a token whose sub looks like nobody, everybody or SQL', () => {
    // Each such sub is a user of its own: never coerced to another user, never a wildcard.
    const subs = ['undefined', 'null', '0', '*', '%', "' OR 1=1 --", 'deleted-user', '   '];
    // Users whose ids are near those subs (letter case, padding, a prefix), and an ordinary one.
    const others = [
      newUserId(),
      'UNDEFINED',
      'Null',
      '00',
      '0 ',
      ' 0',
      'a%b',
      "' OR 1=1 -- ",
      'DELETED-USER',
      'deleted-user ',
      'deleted-user-2',
      ' ',
      '    ',
    ];
    let t: TestApp;
    const othersMessages: { userId: string; id: string }[] = [];

    beforeAll(async () => {
      // A database of its own: these subs are not unique to this file, and "sees nothing" must hold.
      t = await bootTestApp({}, { isolatedDatabase: true });
      for (const userId of others) {
        const stored = await storeMessage(t.db, userId, {
          webhookUrl: 'https://example.com/hooks',
          webhookStatuses: [],
        });
        othersMessages.push({ userId, id: stored.id });
      }
    });

    afterAll(() => t?.close());

    const messagesOf = async (userId: string) =>
      (await t.http.get(`${MESSAGES}?take=100`).set(bearer(userId)).expect(200)).body;

    it.each(subs.map((sub) => [JSON.stringify(sub), sub]))(
      'treats sub %s as a distinct user that sees only its own data',
      async (_name, sub) => {
        const list = await messagesOf(sub);
        expect(list).toMatchObject({ messages: [], total: 0 });
        const filtered = await t.http
          .get(MESSAGES)
          .query({ fromEmail: 'billing@example.com', toEmail: 'ada@example.com', statuses: 'queued' })
          .set(bearer(sub))
          .expect(200);
        expect(filtered.body).toMatchObject({ messages: [], total: 0 });
        const deliveries = await t.http.get('/user/webhook-deliveries').set(bearer(sub)).expect(200);
        expect(deliveries.body).toMatchObject({ deliveries: [], total: 0 });
        for (const { id } of othersMessages) {
          const response = await t.http.get(`${MESSAGES}/${id}`).set(bearer(sub));
          expect(response.status).toBe(404);
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
        }

        // A real user: what it sends is its own, and only it sees it.
        const sent = await t.http.post('/sender/send').set(bearer(sub)).send(sendBody()).expect(201);
        expect(sent.body.userId).toBe(sub);
        expect((await messagesOf(sub)).messages.map((m: { id: string; userId: string }) => [m.id, m.userId])).toEqual([
          [sent.body.id, sub],
        ]);
        await t.http.get(`${MESSAGES}/${sent.body.id}`).set(bearer(sub)).expect(200);
        for (const { userId, id } of othersMessages) {
          expect((await messagesOf(userId)).messages.map((m: { id: string }) => m.id)).toEqual([id]);
          await t.http.get(`${MESSAGES}/${sent.body.id}`).set(bearer(userId)).expect(404);
        }
      },
    );

    it('gives each of those subs its own webhook secret', async () => {
      const secrets = new Set<string>();
      for (const userId of [...subs, ...others]) {
        secrets.add((await t.http.get('/user/webhook-secret').set(bearer(userId)).expect(200)).body.secret);
      }
      expect(secrets.size).toBe(subs.length + others.length);
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
});
