import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

/** GET /user/me: who the caller is and what its credential may do, for clients such as the console (docs/architecture.md#the-console). */
describe('GET /user/me', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });

  afterAll(() => t.close());

  const keyWith = async (userId: string, scopes: string[]) =>
    (await t.http.post('/user/api-keys').set(bearer(userId)).send({ name: 'probe', scopes }).expect(201)).body;

  it('names a JWT caller with every scope', async () => {
    const userId = newUserId();

    const { body } = await t.http.get('/user/me').set(bearer(userId)).expect(200);

    expect(body).toEqual({ userId, credential: 'jwt', scopes: ['send', 'read', 'keys'], apiKeyId: null });
  });

  it.each([[['read']], [['send']], [['keys']], [['send', 'read']]])(
    'answers a key with only %j its own scopes: every key may ask, whatever it lacks',
    async (scopes) => {
      const userId = newUserId();
      const key = await keyWith(userId, scopes);

      const { body } = await t.http.get('/user/me').set('Authorization', `Bearer ${key.key}`).expect(200);

      expect(body).toEqual({ userId, credential: 'api-key', scopes, apiKeyId: key.id });
    },
  );

  it('refuses a deleted key and a missing token with 401', async () => {
    const userId = newUserId();
    const key = await keyWith(userId, ['read']);
    await t.http.delete(`/user/api-keys/${key.id}`).set(bearer(userId)).expect(204);

    await t.http.get('/user/me').set('Authorization', `Bearer ${key.key}`).expect(401);
    await t.http.get('/user/me').expect(401);
  });

  it('is documented as open to every API key', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;

    expect(doc.paths['/user/me'].get['x-api-key-scope']).toBe('any');
    expect(doc.paths['/user/me'].get.security).toEqual(expect.arrayContaining([{ bearer: [] }, { 'api-key': [] }]));
  });
});
