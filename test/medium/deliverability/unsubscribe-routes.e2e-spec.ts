// POST and GET /unsubscribe/{token} (docs/delivery-and-deliverability.md, RFC 8058): the public routes of a List-Unsubscribe
// link, against a real database, with tokens made under the app's own key.
import type { AddressInfo } from 'node:net';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { UnsubscribeService } from '../../../src/deliverability/unsubscribe/unsubscribe.service';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';
import {
  address,
  bulkMessage,
  postChunked,
  suppressionsOf,
  unsubscribeTokens,
} from '../../support/unsubscribe/unsubscribe-support';

const ONE_CLICK = 'List-Unsubscribe=One-Click';
const FORM = 'application/x-www-form-urlencoded';

describe('POST and GET /unsubscribe/{token}', () => {
  let t: TestApp;
  let tokens: ReturnType<typeof unsubscribeTokens>;

  beforeAll(async () => {
    // A database of its own: "changing nothing" counts every suppression, and other suites running
    // beside it on a shared server write theirs (seen in CI: 14 then 15).
    t = await bootTestApp({}, { isolatedDatabase: true });
    // Listening on an address of its own, for the test that speaks HTTP without supertest.
    await t.app.listen(0, '127.0.0.1');
    tokens = unsubscribeTokens(t.config.deliverability.encryptionKey);
  });
  afterAll(() => t?.close());

  const post = (token: string) => t.http.post(`/unsubscribe/${token}`);
  const entryCount = async () => Number((await t.db.query('SELECT count(*) AS n FROM suppressions'))[0].n);

  describe('POST (one-click)', () => {
    it("answers RFC 8058's form body with 200 and puts that recipient, and only that one, on the owner's list", async () => {
      const userId = newUserId('unsub');
      const [to, cc, bcc] = [address('to'), address('cc'), address('bcc')];
      const message = await bulkMessage(t.db, userId, { to: [address('other'), `Ada <${to}>`], cc: [cc], bcc: [bcc] });

      const answer = await post(tokens.encode({ messageId: message.id, recipient: 1 }))
        .type(FORM)
        .send(ONE_CLICK)
        .expect(200);

      expect(answer.body).toEqual({ unsubscribed: true });
      expect(answer.headers['cache-control']).toBe('no-store');
      // Public and not counted: the per-user rate limit has no caller to charge.
      expect(answer.headers['ratelimit-limit']).toBeUndefined();
      expect(await suppressionsOf(t.http, userId)).toEqual([
        { email: to, reason: 'unsubscribe', scope: 'bulk', messageId: message.id, createdAt: expect.any(String) },
      ]);
      // Positions count to, then cc, then bcc.
      await post(tokens.encode({ messageId: message.id, recipient: 3 })).expect(200);
      await post(tokens.encode({ messageId: message.id, recipient: 2 })).expect(200);
      expect((await suppressionsOf(t.http, userId)).map((s) => s.email).sort()).toEqual([to, cc, bcc].sort());
    });

    it('answers a second POST with 200 and changes nothing more', async () => {
      const userId = newUserId('unsub-twice');
      const message = await bulkMessage(t.db, userId, { to: [address('to')] });
      const token = tokens.encode({ messageId: message.id, recipient: 0 });
      await post(token).type(FORM).send(ONE_CLICK).expect(200);
      const first = await suppressionsOf(t.http, userId);

      await post(token).type(FORM).send(ONE_CLICK).expect(200, { unsubscribed: true });

      expect(await suppressionsOf(t.http, userId)).toEqual(first);
    });

    it('keeps an entry already on the list as it was: a hard bounce is not turned into an unsubscribe', async () => {
      const userId = newUserId('unsub-bounced');
      const [bounced, manual] = [address('bounced'), address('manual')];
      const message = await bulkMessage(t.db, userId, { to: [bounced, manual] });
      await t.db.query(
        `INSERT INTO suppressions (user_id, email, reason, scope, message_id, created_at) VALUES ($1, $2, 'hard_bounce', 'all', $3, now())`,
        [userId, bounced, message.id],
      );
      await t.db.query(
        `INSERT INTO suppressions (user_id, email, reason, scope, message_id, created_at) VALUES ($1, $2, 'manual', 'all', NULL, now())`,
        [userId, manual],
      );
      const before = await suppressionsOf(t.http, userId);

      await post(tokens.encode({ messageId: message.id, recipient: 0 })).expect(200);
      await post(tokens.encode({ messageId: message.id, recipient: 1 })).expect(200);

      expect(await suppressionsOf(t.http, userId)).toEqual(before);
      expect(before.map((s) => s.reason).sort()).toEqual(['hard_bounce', 'manual']);
    });

    it.each([
      ['no body', (r: ReturnType<typeof post>) => r],
      ['an empty form', (r: ReturnType<typeof post>) => r.type(FORM).send('')],
      ['JSON', (r: ReturnType<typeof post>) => r.send({ anything: ['at', 'all'] })],
      [
        'text in an unknown charset',
        (r: ReturnType<typeof post>) => r.set('Content-Type', 'text/plain; charset=x-unknown').send('\u00ff'),
      ],
      ['multipart, as RFC 8058 also allows', (r: ReturnType<typeof post>) => r.field('List-Unsubscribe', 'One-Click')],
      [
        'a body of exactly 1024 bytes',
        (r: ReturnType<typeof post>) => r.type(FORM).send(`${ONE_CLICK}&x=${'a'.repeat(1024 - ONE_CLICK.length - 3)}`),
      ],
    ])('takes any body: %s', async (_, withBody) => {
      const userId = newUserId('unsub-body');
      const message = await bulkMessage(t.db, userId, { to: [address('to')] });

      await withBody(post(tokens.encode({ messageId: message.id, recipient: 0 }))).expect(200, { unsubscribed: true });

      expect(await suppressionsOf(t.http, userId)).toHaveLength(1);
    });

    it.each([
      [
        'declared',
        (path: string) =>
          t.http
            .post(path)
            .type(FORM)
            .send(`${ONE_CLICK}&x=${'a'.repeat(1025 - ONE_CLICK.length - 3)}`)
            .then(({ status, headers, body }) => ({ status, headers, body })),
      ],
      [
        'chunked, with no length declared',
        (path: string) => postChunked(t.app.getHttpServer().address() as AddressInfo, path, 64),
      ],
    ])('refuses a body of more than 1024 bytes (%s) with a 413 problem, changing nothing', async (_, send) => {
      const userId = newUserId('unsub-large');
      const message = await bulkMessage(t.db, userId, { to: [address('to')] });

      const answer = await send(`/unsubscribe/${tokens.encode({ messageId: message.id, recipient: 0 })}`);

      expect(answer.status).toBe(413);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.body.detail).toBe('The body is larger than 1024 bytes; an unsubscribe needs none.');
      expect(await suppressionsOf(t.http, userId)).toEqual([]);
    });

    it("never lets a token of one user's message touch another user's list, though both mailed the address", async () => {
      const [userA, userB] = [newUserId('unsub-a'), newUserId('unsub-b')];
      const shared = address('shared');
      const ofA = await bulkMessage(t.db, userA, { to: [shared] });
      await bulkMessage(t.db, userB, { to: [shared] });

      await post(tokens.encode({ messageId: ofA.id, recipient: 0 })).expect(200);

      expect((await suppressionsOf(t.http, userA)).map((s) => s.email)).toEqual([shared]);
      expect(await suppressionsOf(t.http, userB)).toEqual([]);
    });

    it('answers a browser (Accept: text/html) with a confirmation page', async () => {
      const userId = newUserId('unsub-html');
      const message = await bulkMessage(t.db, userId, { to: ['grace@example.org'] });

      const answer = await post(tokens.encode({ messageId: message.id, recipient: 0 }))
        .set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8')
        .type(FORM)
        .send(ONE_CLICK)
        .expect(200);

      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.text).toContain('<h1>You are unsubscribed</h1>');
      expect(answer.text).toContain('<strong>g…@example.org</strong>');
    });
  });

  describe('tokens that name no recipient', () => {
    let userId: string;
    let messageId: string;
    let valid: string;

    beforeAll(async () => {
      userId = newUserId('unsub-forged');
      messageId = (await bulkMessage(t.db, userId, { to: [address('to')] })).id;
      valid = tokens.encode({ messageId, recipient: 0 });
    });

    const flipped = (token: string, at: number) =>
      token.slice(0, at) + (token[at] === '0' ? '1' : '0') + token.slice(at + 1);
    const cases: [string, () => string][] = [
      ['its MAC altered', () => flipped(valid, valid.length - 1)],
      ['its message altered', () => flipped(valid, 0)],
      ['its position altered', () => flipped(valid, 35)],
      [
        'a VERP token of the same recipient',
        () => new RecipientTokens(t.config.deliverability.encryptionKey, 'verp').encode({ messageId, recipient: 0 }),
      ],
      ['another key', () => unsubscribeTokens('not-the-key-of-this-app').encode({ messageId, recipient: 0 })],
      ['a position past the last recipient', () => tokens.encode({ messageId, recipient: 1 })],
      [
        'a message that does not exist',
        () => tokens.encode({ messageId: '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e', recipient: 0 }),
      ],
      ['one character past the format (55)', () => `${valid}0`],
      ['one character short (53)', () => valid.slice(0, -1)],
      ['not hexadecimal', () => `${valid.slice(0, -1)}g`],
      ['4 KiB long', () => valid.repeat(80)],
    ];

    it.each(cases)('answers a token with %s with a 404 problem to POST, changing nothing', async (_, token) => {
      const before = await entryCount();

      const answer = await post(token()).type(FORM).send(ONE_CLICK).expect(404);

      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({ status: 404, detail: 'This unsubscribe link does not exist.' });
      expect(await entryCount()).toBe(before);
      expect(await suppressionsOf(t.http, userId)).toEqual([]);
    });

    it.each(cases)('answers a token with %s with a 404 page to GET', async (_, token) => {
      const answer = await t.http.get(`/unsubscribe/${token()}`).set('Accept', 'text/html').expect(404);

      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.text).toContain('<h1>This unsubscribe link is not valid</h1>');
    });

    it('takes the valid token of the 54 characters the format has, and in capitals, which mail systems may fold to', async () => {
      expect(valid).toHaveLength(54);
      await t.http.get(`/unsubscribe/${valid}`).expect(200);
      await t.http.get(`/unsubscribe/${valid.toUpperCase()}`).expect(200);
    });

    it.each([
      ['no Accept', undefined],
      ['JSON', 'application/json'],
      ['anything', '*/*'],
    ])(
      'answers a client asking for no page (%s) with a 404 problem to GET, as every API route does',
      async (_, accept) => {
        const request = t.http.get(`/unsubscribe/${flipped(valid, 53)}`);
        const answer = await (accept ? request.set('Accept', accept) : request).expect(404);
        expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(answer.body).toMatchObject({ status: 404, detail: 'This unsubscribe link does not exist.' });
      },
    );
  });

  describe('GET (the confirmation page)', () => {
    it('shows a page with a form that posts back, naming the address partly, and changes nothing', async () => {
      const userId = newUserId('unsub-page');
      const message = await bulkMessage(t.db, userId, { to: ['ada@example.com'] });

      const answer = await t.http
        .get(`/unsubscribe/${tokens.encode({ messageId: message.id, recipient: 0 })}`)
        .expect(200);

      expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(answer.headers['cache-control']).toBe('no-store');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['content-security-policy']).toMatch(
        /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
      );
      expect(answer.text).toContain('<html lang="en">');
      expect(answer.text).toContain('<strong>a…@example.com</strong>');
      expect(answer.text).not.toContain('ada@');
      expect(answer.text).toContain('<form method="post">');
      expect(answer.text).not.toContain('<script');
      expect(await suppressionsOf(t.http, userId)).toEqual([]);
    });

    it('escapes what it shows of the address', async () => {
      const userId = newUserId('unsub-escape');
      const message = await bulkMessage(t.db, userId, { to: ["&o'brien@example.com"] });

      const answer = await t.http
        .get(`/unsubscribe/${tokens.encode({ messageId: message.id, recipient: 0 })}`)
        .expect(200);

      expect(answer.text).toContain('<strong>&#38;…@example.com</strong>');
    });
  });

  it('documents both routes in the OpenAPI document, public (no bearer token), with their pages and problems', async () => {
    const { body: doc } = await t.http.get('/docs-json').expect(200);
    const { get, post: postOperation } = doc.paths['/unsubscribe/{token}'];

    for (const operation of [get, postOperation]) {
      expect(operation.security).toBeUndefined();
      expect(operation.tags).toEqual(['unsubscribe']);
      expect(operation.parameters).toEqual([expect.objectContaining({ name: 'token', in: 'path', required: true })]);
      expect(Object.keys(operation.responses['200'].content)).toContain('text/html');
      expect(Object.keys(operation.responses['404'].content)).toEqual(['application/problem+json']);
    }
    expect(postOperation.requestBody).toMatchObject({
      required: false,
      content: { 'application/x-www-form-urlencoded': expect.any(Object) },
    });
    expect(postOperation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/UnsubscribeResponse',
    });
    expect(Object.keys(postOperation.responses)).toEqual(expect.arrayContaining(['200', '404', '413']));
  });

  it('documents the undo in the OpenAPI document, public, with its page, JSON and problems', async () => {
    const { body: doc } = await t.http.get('/docs-json').expect(200);
    const operation = doc.paths['/unsubscribe/{token}/resubscribe'].post;

    expect(operation.security).toBeUndefined();
    expect(operation.tags).toEqual(['unsubscribe']);
    expect(operation.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ResubscribeResponse',
    });
    expect(Object.keys(operation.responses['200'].content)).toContain('text/html');
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '404', '413']));
  });

  it('unsubscribes through UnsubscribeService.suppress alone, the way the inbound mailto: address does: the recipient, or undefined changing nothing', async () => {
    const service = t.app.get(UnsubscribeService);
    const userId = newUserId('unsub-service');
    const to = address('to');
    const message = await bulkMessage(t.db, userId, { to: [to] });
    const token = tokens.encode({ messageId: message.id, recipient: 0 });

    expect(await service.suppress(`${token.slice(0, -1)}${token.endsWith('0') ? '1' : '0'}`)).toBeUndefined();
    expect(await suppressionsOf(t.http, userId)).toEqual([]);
    expect(await service.suppress(token)).toEqual({
      userId,
      messageId: message.id,
      address: to,
      sender: 'billing@example.com',
    });
    expect(await suppressionsOf(t.http, userId)).toEqual([
      { email: to, reason: 'unsubscribe', scope: 'bulk', messageId: message.id, createdAt: expect.any(String) },
    ]);
  });
});
