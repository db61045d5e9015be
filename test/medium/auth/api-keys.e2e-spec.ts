import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const KEY_FORMAT = /^mr_[A-Za-z0-9_-]{43}$/;
const keyAuth = (key: string) => ({ Authorization: `Bearer ${key}` });

/** docs/api.md#routes, docs/api.md#smtp-submission: POST, GET and DELETE /user/api-keys, and what a key may reach. */
describe('API keys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t?.close());

  const create = (userId: string, body: object = { name: 'CRM' }) =>
    t.http.post('/user/api-keys').set(bearer(userId)).send(body);
  const newKey = async (userId: string, body: object = { name: 'CRM' }): Promise<{ id: string; key: string }> =>
    (await create(userId, body).expect(201)).body;
  const storedRows = async (userId: string) => t.db.query('SELECT * FROM api_keys WHERE user_id = $1', [userId]);

  const expectProblem = (response: Response, status: number, detail?: RegExp) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ status, type: 'about:blank', requestId: expect.any(String) });
    if (detail) expect(response.body.detail).toMatch(detail);
  };

  const expectRefusedKey = (response: Response) => {
    expectProblem(response, 401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  };

  it('shows a new key once, with every scope by default, and lists it without the key', async () => {
    const userId = newUserId();

    const created = await create(userId, { name: 'CRM newsletters' }).expect(201);

    expect(Object.keys(created.body).sort()).toEqual(['createdAt', 'id', 'key', 'name', 'prefix', 'scopes']);
    expect(created.body).toMatchObject({
      name: 'CRM newsletters',
      scopes: ['send', 'read', 'keys'],
      prefix: created.body.key.slice(0, 8),
    });
    expect(created.body.key).toMatch(KEY_FORMAT);
    expect(Buffer.from(created.body.key.slice(3), 'base64url')).toHaveLength(32);
    const list = await t.http.get('/user/api-keys').set(bearer(userId)).expect(200);
    expect(list.body).toEqual({
      apiKeys: [
        {
          id: created.body.id,
          name: 'CRM newsletters',
          scopes: ['send', 'read', 'keys'],
          prefix: created.body.key.slice(0, 8),
          createdAt: created.body.createdAt,
          lastUsedAt: null,
        },
      ],
    });
    expect(list.text).not.toContain(created.body.key.slice(3));
  });

  it('stores only a 32-byte hash, from which the key cannot be read', async () => {
    const userId = newUserId();
    const { key } = await newKey(userId);

    const [row] = await storedRows(userId);

    expect(Buffer.isBuffer(row.hash)).toBe(true);
    expect(row.hash).toHaveLength(32);
    const stored = JSON.stringify(row) + row.hash.toString('latin1');
    for (const part of [key, key.slice(3), Buffer.from(key.slice(3), 'base64url').toString('latin1')])
      expect(stored).not.toContain(part);
  });

  it('makes a different key each time, and lists newest first', async () => {
    const userId = newUserId();
    const first = await newKey(userId, { name: 'one' });
    const second = await newKey(userId, { name: 'two' });

    const { body } = await t.http.get('/user/api-keys').set(bearer(userId)).expect(200);

    expect(first.key).not.toBe(second.key);
    expect(body.apiKeys.map((k: { name: string }) => k.name)).toEqual(['two', 'one']);
  });

  describe('scopes', () => {
    const userId = newUserId();
    const keys: Record<string, string> = {};

    // Each operation of each scope, as a key holder would call it.
    const operations: Record<string, Array<[string, (key: string) => Promise<Response>, number]>> = {
      send: [
        ['POST /sender/send', (key) => t.http.post('/sender/send').set(keyAuth(key)).send(sendBody()), 201],
        [
          'POST /attachments',
          (key) => t.http.post('/attachments').set(keyAuth(key)).attach('file', Buffer.from('hello'), 'a.txt'),
          201,
        ],
        [
          'POST /user/suppressions',
          (key) => t.http.post('/user/suppressions').set(keyAuth(key)).send({ email: 'gone@example.com' }),
          201,
        ],
      ],
      read: [
        ['GET /user/messages', (key) => t.http.get('/user/messages').set(keyAuth(key)), 200],
        ['GET /user/suppressions', (key) => t.http.get('/user/suppressions').set(keyAuth(key)), 200],
        ['GET /user/webhook-deliveries', (key) => t.http.get('/user/webhook-deliveries').set(keyAuth(key)), 200],
        ['GET /domains', (key) => t.http.get('/domains').set(keyAuth(key)), 200],
      ],
      keys: [
        ['GET /user/api-keys', (key) => t.http.get('/user/api-keys').set(keyAuth(key)), 200],
        [
          'POST /user/api-keys',
          (key) => t.http.post('/user/api-keys').set(keyAuth(key)).send({ name: 'made by a key' }),
          201,
        ],
        ['GET /user/webhook-secret', (key) => t.http.get('/user/webhook-secret').set(keyAuth(key)), 200],
      ],
    };

    beforeAll(async () => {
      for (const scope of Object.keys(operations))
        keys[scope] = (await newKey(userId, { name: scope, scopes: [scope] })).key;
    });

    it.each(Object.keys(operations))(
      'lets a key with only %s do what that scope allows, and nothing else (403 naming the scope)',
      async (scope) => {
        for (const [name, call, status] of operations[scope]) {
          expect([name, (await call(keys[scope])).status]).toEqual([name, status]);
        }
        for (const [other, calls] of Object.entries(operations).filter(([s]) => s !== scope)) {
          for (const [name, call] of calls) {
            const response = await call(keys[scope]);
            expect([name, response.status]).toEqual([name, 403]);
            expectProblem(response, 403, new RegExp(`lacks the scope ${other}\\b`));
          }
        }
      },
    );

    it("acts as its owner: what a key sends, the owner's JWT lists", async () => {
      const { body: sent } = await t.http
        .post('/sender/send')
        .set(keyAuth(keys.send))
        .send(sendBody({ subject: 'by key' }))
        .expect(201);

      const { body } = await t.http.get(`/user/messages/${sent.id}`).set(bearer(userId)).expect(200);

      expect(body.subject).toBe('by key');
      await t.http.get(`/user/messages/${sent.id}`).set(bearer(newUserId())).expect(404);
    });

    it('records when a key was last used', async () => {
      // A key of its own: the scope tests used the others earlier, and a use is written at most once a minute.
      const { key } = await newKey(userId, { name: 'last used', scopes: ['read'] });
      const before = Date.now();
      await t.http.get('/user/messages').set(keyAuth(key)).expect(200);

      // Written off the request's path: polled for.
      let lastUsedAt: string | null = null;
      for (
        const deadline = Date.now() + 5_000;
        !lastUsedAt && Date.now() < deadline;
        await new Promise((r) => setTimeout(r, 20))
      ) {
        const { body } = await t.http.get('/user/api-keys').set(bearer(userId)).expect(200);
        lastUsedAt = body.apiKeys.find((k: { name: string }) => k.name === 'last used').lastUsedAt;
      }

      expect(new Date(lastUsedAt!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    });
  });

  it("lists each key's prefix, its first 8 characters, so that keys of one name can be told apart; a key stored before prefixes were kept shows null", async () => {
    const userId = newUserId();
    const first = await newKey(userId, { name: 'same' });
    const second = await newKey(userId, { name: 'same' });
    // As a key made before the prefix column was added: only its hash and fields were stored.
    await t.db.query(
      `INSERT INTO api_keys (id, user_id, name, scopes, hash, created_at) VALUES (gen_random_uuid(), $1, 'old', ARRAY['read'], $2, now() - interval '1 day')`,
      [userId, randomBytes(32)],
    );

    const { body } = await t.http.get('/user/api-keys').set(bearer(userId)).expect(200);

    expect(body.apiKeys.map((k: { name: string; prefix: string | null }) => [k.name, k.prefix])).toEqual([
      ['same', second.key.slice(0, 8)],
      ['same', first.key.slice(0, 8)],
      ['old', null],
    ]);
    expect(second.key.slice(0, 8)).toMatch(/^mr_[A-Za-z0-9_-]{5}$/);
  });

  describe('a key never widens itself (docs/api.md#smtp-submission)', () => {
    const keysOnly = async (userId: string) => (await newKey(userId, { name: 'keys only', scopes: ['keys'] })).key;

    it('makes keys with its own scopes when none are asked for, not all three', async () => {
      const userId = newUserId();
      const key = await keysOnly(userId);

      const { body } = await t.http
        .post('/user/api-keys')
        .set(keyAuth(key))
        .send({ name: 'made by a key' })
        .expect(201);

      expect(body.scopes).toEqual(['keys']);
      expectProblem(await t.http.get('/user/messages').set(keyAuth(body.key)), 403, /lacks the scope read/);
    });

    it('makes keys within its scopes, and refuses a scope it lacks (403 naming it), storing nothing', async () => {
      const userId = newUserId();
      const { key } = await newKey(userId, { name: 'send and keys', scopes: ['send', 'keys'] });

      const within = await t.http
        .post('/user/api-keys')
        .set(keyAuth(key))
        .send({ name: 'sender', scopes: ['send'] })
        .expect(201);
      expect(within.body.scopes).toEqual(['send']);
      const wider = await t.http
        .post('/user/api-keys')
        .set(keyAuth(key))
        .send({ name: 'wider', scopes: ['send', 'read', 'keys'] });
      expectProblem(wider, 403, /cannot make a key with the scope read, which it lacks; its scopes: send, keys/);

      expect((await storedRows(userId)).map((row: { name: string }) => row.name).sort()).toEqual([
        'send and keys',
        'sender',
      ]);
    });

    it('cannot delete a key holding a scope it lacks (403, the key keeps working), and deletes one within its scopes', async () => {
      const userId = newUserId();
      const key = await keysOnly(userId);
      const full = await newKey(userId, { name: 'full' });
      const narrow = await newKey(userId, { name: 'narrow', scopes: ['keys'] });

      expectProblem(
        await t.http.delete(`/user/api-keys/${full.id}`).set(keyAuth(key)),
        403,
        /cannot delete a key with the scope send, read, which it lacks/,
      );
      await t.http.get('/user/messages').set(keyAuth(full.key)).expect(200);
      await t.http.delete(`/user/api-keys/${narrow.id}`).set(keyAuth(key)).expect(204);

      expect((await storedRows(userId)).map((row: { name: string }) => row.name).sort()).toEqual(['full', 'keys only']);
    });

    it('leaves a JWT its full power: it makes a key of any scopes and deletes any key', async () => {
      const userId = newUserId();
      const full = await newKey(userId, { name: 'full' });

      expect((await create(userId, { name: 'any', scopes: ['read', 'send'] }).expect(201)).body.scopes).toEqual([
        'send',
        'read',
      ]);
      await t.http.delete(`/user/api-keys/${full.id}`).set(bearer(userId)).expect(204);
    });

    it("answers 404, not 403, for another user's key, whatever its scopes", async () => {
      const key = await keysOnly(newUserId());
      const { id } = await newKey(newUserId());

      expectProblem(await t.http.delete(`/user/api-keys/${id}`).set(keyAuth(key)), 404);
    });
  });

  describe('refused keys: 401 like a bad JWT', () => {
    const wellFormedUnknown = `mr_${Buffer.alloc(32, 7).toString('base64url')}`;

    it.each([
      ['an unknown key of the exact length', wellFormedUnknown],
      ['one character longer', `${wellFormedUnknown}A`],
      ['one character shorter', wellFormedUnknown.slice(0, -1)],
      ['the prefix alone', 'mr_'],
      ['characters outside base64url', `mr_${'+/'.repeat(21)}A`],
      ['a 4 KiB key', `mr_${'A'.repeat(4096 - 3)}`],
    ])('refuses %s', async (_, key) => {
      expectRefusedKey(await t.http.get('/user/messages').set(keyAuth(key)));
    });

    it('refuses a real key with one character changed', async () => {
      const { key } = await newKey(newUserId());
      const changed = `mr_${key[3] === 'A' ? 'B' : 'A'}${key.slice(4)}`;

      expectRefusedKey(await t.http.get('/user/messages').set(keyAuth(changed)));
      await t.http.get('/user/messages').set(keyAuth(key)).expect(200);
    });
  });

  describe('DELETE', () => {
    it('deletes a key (204): it is refused at once and no longer listed', async () => {
      const userId = newUserId();
      const { id, key } = await newKey(userId);
      await t.http.get('/user/messages').set(keyAuth(key)).expect(200);

      await t.http.delete(`/user/api-keys/${id}`).set(bearer(userId)).expect(204);

      expectRefusedKey(await t.http.get('/user/messages').set(keyAuth(key)));
      expect((await t.http.get('/user/api-keys').set(bearer(userId)).expect(200)).body).toEqual({ apiKeys: [] });
      expect(await storedRows(userId)).toEqual([]);
      expectProblem(await t.http.delete(`/user/api-keys/${id}`).set(bearer(userId)), 404);
    });

    it("answers 404 for another user's key, which keeps working", async () => {
      const owner = newUserId();
      const { id, key } = await newKey(owner);

      expectProblem(
        await t.http.delete(`/user/api-keys/${id}`).set(bearer(newUserId())),
        404,
        new RegExp(`API key ${id} does not exist`),
      );

      await t.http.get('/user/messages').set(keyAuth(key)).expect(200);
      expect(await storedRows(owner)).toHaveLength(1);
    });

    it('answers 404 for a malformed id', async () => {
      expectProblem(await t.http.delete('/user/api-keys/not-a-uuid').set(bearer(newUserId())), 404);
    });
  });

  describe('bad input: 400 and nothing stored', () => {
    it.each([
      ['an empty name', { name: '' }, 'name'],
      ['a blank name', { name: '   ' }, 'name'],
      ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name'],
      ['a name with NUL', { name: 'a\u0000b' }, 'name'],
      ['no name', {}, 'name'],
      ['a name that is not a string', { name: 42 }, 'name'],
      ['an unknown scope', { name: 'x', scopes: ['admin'] }, 'scopes'],
      ['no scopes at all', { name: 'x', scopes: [] }, 'scopes'],
      ['a scope twice', { name: 'x', scopes: ['send', 'send'] }, 'scopes'],
      ['scopes that are not a list', { name: 'x', scopes: 'send' }, 'scopes'],
      ['an extra field', { name: 'x', key: 'mr_mine' }, 'key'],
    ])('refuses %s', async (_, body, field) => {
      const userId = newUserId();

      const response = await create(userId, body);

      expectProblem(response, 400);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(await storedRows(userId)).toEqual([]);
    });

    it('takes a name of exactly 100 characters (astral ones count as one)', async () => {
      const name = '😀'.repeat(100);

      const { body } = await create(newUserId(), { name }).expect(201);

      expect(body.name).toBe(name);
    });
  });

  it("refuses a user's 101st key (409)", async () => {
    const userId = newUserId();
    const hashes = Array.from({ length: 100 }, (_, i) => Buffer.alloc(32, i));
    await t.db.query(
      `INSERT INTO api_keys (id, user_id, name, scopes, hash, created_at)
       SELECT gen_random_uuid(), $1, 'k', ARRAY['read'], h, now() FROM unnest($2::bytea[]) AS h`,
      [userId, hashes],
    );

    expectProblem(await create(userId), 409, /100 API keys/);
    expect(await storedRows(userId)).toHaveLength(100);
  });
});
