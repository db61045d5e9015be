import { randomBytes } from 'node:crypto';
import { ApiKeys } from '../../../src/auth/api-keys/api-keys';
import { ApiKeysRepository } from '../../../src/auth/api-keys/api-keys.repository';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const keyAuth = (key: string) => ({ Authorization: `Bearer ${key}` });

/**
 * docs/api.md#smtp-submission: a key is checked without a database round trip once a process has seen it, and a
 * deleted key is refused by every process within one second. Two API processes on one database,
 * as in production; they share DATA_ENCRYPTION_KEY, as processes without a shared DATA_DIR must.
 * A database of their own: deletions by other suites would make them forget keys at other times.
 */
describe('API key revocation across processes', () => {
  let databaseUrl: string;
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
    const env = { DATABASE_URL: databaseUrl, DATA_ENCRYPTION_KEY: randomBytes(32).toString('hex') };
    [a, b] = await Promise.all([bootTestApp(env), bootTestApp(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  const newKey = async (userId: string): Promise<{ id: string; key: string }> =>
    (await a.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'CRM' }).expect(201)).body;
  const listWith = (app: TestApp, key: string) => app.http.get('/user/messages').set(keyAuth(key));
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('lets a key made on one process work on the other', async () => {
    const { key } = await newKey(newUserId());

    await listWith(b, key).expect(200);
  });

  it('answers a key it has seen from memory, until a deletion is announced', async () => {
    const { id, key } = await newKey(newUserId());
    await listWith(b, key).expect(200);
    // The first use starts b's polling, whose first answer makes b forget what it looked up before; used again after it, the key stays remembered.
    await pause(300);
    await listWith(b, key).expect(200);

    // Gone from the table without the announcement the API's DELETE makes: only a process that
    // does not ask the database can still accept it, and b does, over several polls.
    await a.db.query('DELETE FROM api_keys WHERE id = $1', [id]);
    for (let i = 0; i < 6; i++, await pause(250)) await listWith(b, key).expect(200);
    await a.db.query('UPDATE api_key_revocations SET generation = generation + 1 WHERE id = 1');

    const announcedAt = performance.now();
    while ((await listWith(b, key)).status !== 401) expect(performance.now() - announcedAt).toBeLessThan(1000);
  });

  it('looks a key up once for a burst of requests that bring it at once', async () => {
    const { key } = await newKey(newUserId());
    const repository = b.app.get(ApiKeysRepository);
    const holderOf = repository.holderOf.bind(repository);
    const asked = jest.spyOn(b.app.get(ApiKeys), 'authenticate');
    // The look-up answers once every request of the burst has brought the key, so that they come
    // at once however busy the machine (spread out, a request after a look-up that lapsed the
    // process's trust in what it remembers would rightly look up again).
    const lookUps = jest.spyOn(repository, 'holderOf').mockImplementation(async (hash) => {
      for (const deadline = Date.now() + 10_000; asked.mock.calls.length < 20 && Date.now() < deadline;) await pause(5);
      return holderOf(hash);
    });
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, () => listWith(b, key)));

      expect(asked).toHaveBeenCalledTimes(20);
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      expect(lookUps).toHaveBeenCalledTimes(1);
    } finally {
      lookUps.mockRestore();
      asked.mockRestore();
    }
  });

  it('refuses a key deleted on one process on the other within one second', async () => {
    const userId = newUserId();
    const { id, key } = await newKey(userId);
    // Remembered by both processes.
    await Promise.all([listWith(a, key).expect(200), listWith(b, key).expect(200)]);
    await Promise.all([listWith(a, key).expect(200), listWith(b, key).expect(200)]);

    await a.http.delete(`/user/api-keys/${id}`).set(bearer(userId)).expect(204);
    const deletedAt = performance.now();

    let answers = 0;
    for (; (await listWith(b, key)).status !== 401; answers++) expect(performance.now() - deletedAt).toBeLessThan(1000);
    const elapsed = performance.now() - deletedAt;
    expect(elapsed).toBeLessThan(1000);
    await listWith(a, key).expect(401);
    process.stdout.write(
      `b refused the deleted key ${Math.round(elapsed)} ms after the DELETE answered (${answers} answers before)\n`,
    );
  });

  it('keeps other keys working after a deletion', async () => {
    const userId = newUserId();
    const [kept, deleted] = [await newKey(userId), await newKey(userId)];
    await listWith(b, kept.key).expect(200);

    await a.http.delete(`/user/api-keys/${deleted.id}`).set(bearer(userId)).expect(204);

    const deletedAt = performance.now();
    while ((await listWith(b, deleted.key)).status !== 401) expect(performance.now() - deletedAt).toBeLessThan(1000);
    await listWith(b, kept.key).expect(200);
  });
});

describe('API keys and the rate limit', () => {
  const LIMIT = 3;
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  });
  afterAll(() => t?.close());

  it("counts a key's requests in its owner's budget, shared with the owner's JWT", async () => {
    const userId = newUserId();
    const { body } = await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'CRM' }).expect(201);

    const second = await t.http.get('/user/messages').set(keyAuth(body.key)).expect(200);
    expect(second.headers['ratelimit-remaining']).toBe('1');
    await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    const limited = await t.http.get('/user/messages').set(keyAuth(body.key));

    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another user's budget is untouched.
    await t.http.get('/user/messages').set(bearer(newUserId())).expect(200);
  });
});

describe('API keys in the API document', () => {
  let t: TestApp;
  let doc: {
    components: {
      securitySchemes: Record<
        string,
        { type: string; scheme?: string; bearerFormat?: string; in?: string; name?: string }
      >;
    };
    paths: Record<
      string,
      Record<
        string,
        { security?: Record<string, string[]>[]; 'x-api-key-scope'?: string; responses: Record<string, unknown> }
      >
    >;
  };

  beforeAll(async () => {
    t = await bootTestApp();
    doc = (await t.http.get('/docs-json').expect(200)).body;
  });
  afterAll(() => t?.close());

  it('declares both schemes, the JWT and the API key, on the Authorization header', () => {
    expect(doc.components.securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      'api-key': expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }),
    });
  });

  it.each([
    ['/sender/send', 'post', 'send'],
    ['/attachments', 'post', 'send'],
    ['/user/messages/{id}/cancel', 'post', 'send'],
    ['/user/messages', 'get', 'read'],
    ['/domains', 'get', 'read'],
    ['/domains/{id}/verify', 'post', 'send'],
    ['/user/webhook-secret', 'get', 'keys'],
    ['/user/api-keys', 'post', 'keys'],
    ['/user/api-keys/{id}', 'delete', 'keys'],
  ])('lets %s (%s) be called with a JWT or a key with scope %s, and documents the 403', (path, method, scope) => {
    const operation = doc.paths[path][method];

    expect(operation.security).toEqual(expect.arrayContaining([{ bearer: [] }, { 'api-key': [] }]));
    expect(operation['x-api-key-scope']).toBe(scope);
    expect(operation.responses).toHaveProperty('403');
  });

  it('states a scope for every operation that takes a bearer token', () => {
    const unscoped = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([, op]) => op.security && !op['x-api-key-scope'])
        .map(([method]) => `${method} ${path}`),
    );

    expect(unscoped).toEqual([]);
  });
});
