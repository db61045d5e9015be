// The webhook endpoints API (docs/delivery-and-deliverability.md#webhooks) on a real database: what it stores, what it refuses (400,
// nothing stored), the 21st endpoint, another user's id, scopes. Deliveries: endpoint-delivery.e2e-spec.
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const URL = 'https://hooks.example.com/mailroom';

describe('webhook endpoints API (docs/delivery-and-deliverability.md#webhooks)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const create = (userId: string, body: object) =>
    t.http.post('/user/webhook-endpoints').set(bearer(userId)).send(body);
  const stored = async (userId: string) =>
    Number(
      (await t.db.query(`SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = $1`, [userId]))[0].n as string,
    );

  it('creates an endpoint with its own secret, shown in the answer and by /secret, never in the list or get', async () => {
    const userId = newUserId('endpoints');
    const created = await create(userId, { url: URL, events: ['message.sent', 'domain.verified'], description: 'CRM' });

    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: URL,
      events: ['message.sent', 'domain.verified'],
      description: 'CRM',
      enabled: true,
      disabledReason: null,
      createdAt: expect.stringMatching(/Z$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
    });
    // At least 24 random bytes (docs/delivery-and-deliverability.md#webhooks).
    expect(Buffer.from(created.body.secret.slice('whsec_'.length), 'base64').length).toBeGreaterThanOrEqual(24);
    expect(created.headers.location).toBe(`/user/webhook-endpoints/${created.body.id}`);
    const { secret, ...endpoint } = created.body;

    const other = (await create(userId, { url: URL }).expect(201)).body;
    expect(other.secret).not.toBe(secret);
    expect(other.events).toEqual([]);

    const list = await t.http.get('/user/webhook-endpoints').set(bearer(userId)).expect(200);
    expect(list.body.endpoints).toEqual([endpoint, expect.objectContaining({ id: other.id, description: null })]);
    const one = await t.http.get(`/user/webhook-endpoints/${endpoint.id}`).set(bearer(userId)).expect(200);
    expect(one.body).toEqual(endpoint);
    const shown = await t.http.get(`/user/webhook-endpoints/${endpoint.id}/secret`).set(bearer(userId)).expect(200);
    expect(shown.body).toEqual({ secret });
  });

  it('patches url, events, description and enabled; enabling clears disabledReason', async () => {
    const userId = newUserId('patch');
    const { id } = (await create(userId, { url: URL }).expect(201)).body;
    await t.db.query(`UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'failing' WHERE id = $1`, [id]);

    const patched = await t.http
      .patch(`/user/webhook-endpoints/${id}`)
      .set(bearer(userId))
      .send({ url: 'https://other.example.com/h', events: ['suppression.created'], description: 'x', enabled: true })
      .expect(200);

    expect(patched.body).toMatchObject({
      url: 'https://other.example.com/h',
      events: ['suppression.created'],
      description: 'x',
      enabled: true,
      disabledReason: null,
    });
    const disabled = await t.http
      .patch(`/user/webhook-endpoints/${id}`)
      .set(bearer(userId))
      .send({ enabled: false })
      .expect(200);
    expect(disabled.body).toMatchObject({ enabled: false, disabledReason: null, url: 'https://other.example.com/h' });
    // A disabled endpoint cannot be tested (docs/delivery-and-deliverability.md#webhooks).
    const test = await t.http.post(`/user/webhook-endpoints/${id}/test`).set(bearer(userId)).expect(409);
    expect(test.body.detail).toMatch(/disabled/);
  });

  it('deletes an endpoint (204), after which it is a 404 everywhere', async () => {
    const userId = newUserId('delete');
    const { id } = (await create(userId, { url: URL }).expect(201)).body;

    await t.http.delete(`/user/webhook-endpoints/${id}`).set(bearer(userId)).expect(204);

    for (const request of [
      t.http.get(`/user/webhook-endpoints/${id}`),
      t.http.get(`/user/webhook-endpoints/${id}/secret`),
      t.http.patch(`/user/webhook-endpoints/${id}`).send({ enabled: true }),
      t.http.delete(`/user/webhook-endpoints/${id}`),
      t.http.post(`/user/webhook-endpoints/${id}/rotate-secret`),
      t.http.post(`/user/webhook-endpoints/${id}/test`),
    ])
      expect((await request.set(bearer(userId))).status).toBe(404);
    expect(await stored(userId)).toBe(0);
  });

  it("answers another user's endpoint id, and a malformed one, with 404 and changes nothing", async () => {
    const owner = newUserId('owner');
    const intruder = newUserId('intruder');
    const { id, secret } = (await create(owner, { url: URL }).expect(201)).body;

    for (const target of [id, 'not-an-id']) {
      const requests = [
        t.http.get(`/user/webhook-endpoints/${target}`),
        t.http.get(`/user/webhook-endpoints/${target}/secret`),
        t.http.patch(`/user/webhook-endpoints/${target}`).send({ enabled: false }),
        t.http.post(`/user/webhook-endpoints/${target}/rotate-secret`),
        t.http.post(`/user/webhook-endpoints/${target}/test`),
        t.http.delete(`/user/webhook-endpoints/${target}`),
      ];
      for (const request of requests) {
        const response = await request.set(bearer(intruder));
        expect({ target, status: response.status, type: response.type }).toEqual({
          target,
          status: 404,
          type: 'application/problem+json',
        });
      }
    }
    const kept = await t.http.get(`/user/webhook-endpoints/${id}`).set(bearer(owner)).expect(200);
    expect(kept.body).toMatchObject({ enabled: true, url: URL });
    expect((await t.http.get(`/user/webhook-endpoints/${id}/secret`).set(bearer(owner))).body).toEqual({ secret });
    expect((await t.http.get('/user/webhook-endpoints').set(bearer(intruder)).expect(200)).body).toEqual({
      endpoints: [],
    });
  });

  it('refuses the 21st endpoint with 409, storing nothing', async () => {
    const userId = newUserId('twenty');
    for (let i = 0; i < 20; i++) await create(userId, { url: `${URL}/${i}` }).expect(201);

    const refused = await create(userId, { url: `${URL}/20` });

    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/20 webhook endpoints/);
    expect(await stored(userId)).toBe(20);
  });

  it('refuses bad bodies with 400 naming each field, storing nothing; limits at their maximum pass', async () => {
    const userId = newUserId('bad-bodies');
    const longUrl = (length: number) => `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;
    const refusals: [object, string[]][] = [
      [{}, ['url']],
      [{ url: 'ftp://example.com/x' }, ['url']],
      [{ url: 'not a url' }, ['url']],
      // A host class-validator's IsUrl takes but the WHATWG URL parser refuses (an invalid punycode label).
      [{ url: 'https://xn--a.example/hook' }, ['url']],
      [{ url: null }, ['url']],
      [{ url: longUrl(2049) }, ['url']],
      // Never deliverable (docs/delivery-and-deliverability.md#webhooks): a private address named outright, credentials in the URL.
      [{ url: 'http://127.0.0.1:8080/hook' }, ['url']],
      [{ url: 'http://[::1]/hook' }, ['url']],
      [{ url: 'https://user:secret@example.com/hook' }, ['url']],
      [{ url: URL, events: ['message.sent', 'message.opened'] }, ['events']],
      [{ url: URL, events: ['endpoint.test'] }, ['events']],
      [{ url: URL, events: 'message.sent' }, ['events']],
      [{ url: URL, description: 'd'.repeat(256) }, ['description']],
      [{ url: URL, enabled: false }, ['enabled']],
      [{ url: URL, secret: 'whsec_mine' }, ['secret']],
    ];
    for (const [body, fields] of refusals) {
      const response = await create(userId, body);
      expect({
        body,
        status: response.status,
        fields: response.body.errors?.map((e: { field: string }) => e.field),
      }).toEqual({
        body,
        status: 400,
        fields,
      });
    }
    expect(await stored(userId)).toBe(0);

    const { id } = (await create(userId, { url: longUrl(2048), description: 'd'.repeat(255) }).expect(201)).body;
    const patch = await t.http
      .patch(`/user/webhook-endpoints/${id}`)
      .set(bearer(userId))
      .send({ events: ['nope'], description: 'e'.repeat(256), enabled: 'yes' });
    expect(patch.status).toBe(400);
    expect(patch.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'description',
      'enabled',
      'events',
    ]);
    // null is a value only `description` takes; the others are NOT NULL columns (a 400, not a 500);
    // and a URL the WHATWG parser refuses.
    for (const [body, field] of [
      [{ url: null }, 'url'],
      [{ events: null }, 'events'],
      [{ enabled: null }, 'enabled'],
      [{ url: 'https://xn--a.example/hook' }, 'url'],
    ] as const) {
      const nulled = await t.http.patch(`/user/webhook-endpoints/${id}`).set(bearer(userId)).send(body);
      expect({
        body,
        status: nulled.status,
        fields: nulled.body.errors?.map((e: { field: string }) => e.field),
      }).toEqual({ body, status: 400, fields: [field] });
    }
    const unchanged = await t.http.get(`/user/webhook-endpoints/${id}`).set(bearer(userId)).expect(200);
    expect(unchanged.body).toMatchObject({
      url: longUrl(2048),
      events: [],
      description: 'd'.repeat(255),
      enabled: true,
    });
  });

  it('needs the keys scope to create, change or reveal, and read to list (docs/delivery-and-deliverability.md#webhooks)', async () => {
    const userId = newUserId('scopes');
    const { id } = (await create(userId, { url: URL }).expect(201)).body;
    const readKey = (
      await t.http
        .post('/user/api-keys')
        .set(bearer(userId))
        .send({ name: 'reader', scopes: ['read'] })
        .expect(201)
    ).body.key as string;
    const asReader = { Authorization: `Bearer ${readKey}` };

    await t.http.get('/user/webhook-endpoints').set(asReader).expect(200);
    await t.http.get(`/user/webhook-endpoints/${id}`).set(asReader).expect(200);
    for (const request of [
      t.http.post('/user/webhook-endpoints').send({ url: URL }),
      t.http.get(`/user/webhook-endpoints/${id}/secret`),
      t.http.patch(`/user/webhook-endpoints/${id}`).send({ enabled: false }),
      t.http.post(`/user/webhook-endpoints/${id}/rotate-secret`),
      t.http.post(`/user/webhook-endpoints/${id}/test`),
      t.http.delete(`/user/webhook-endpoints/${id}`),
    ])
      expect((await request.set(asReader)).status).toBe(403);
    expect(await stored(userId)).toBe(1);
  });

  it('documents every event payload in the OpenAPI document, and its endpoints examples work as given', async () => {
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    for (const name of [
      'MessageEvent',
      'RecipientEvent',
      'DomainEvent',
      'SuppressionEvent',
      'InboundReceivedEvent',
      'EndpointTestEvent',
    ])
      expect({ name, properties: Object.keys(doc.components.schemas[name]?.properties ?? {}).sort() }).toEqual({
        name,
        properties: ['data', 'id', 'timestamp', 'type'],
      });
    type Examples = Record<string, { value: object }>;
    const examples = (path: string, method: string): object[] =>
      Object.values<{ value: object }>(
        (doc.paths[path][method].requestBody.content['application/json'].examples as Examples) ?? {},
      ).map((example) => example.value);
    const userId = newUserId('docs');
    const creations = examples('/user/webhook-endpoints', 'post');
    expect(creations.length).toBeGreaterThan(0);
    for (const value of creations) {
      const { body } = await create(userId, value).expect(201);
      for (const patch of examples('/user/webhook-endpoints/{id}', 'patch'))
        await t.http.patch(`/user/webhook-endpoints/${body.id}`).set(bearer(userId)).send(patch).expect(200);
    }
  });
});
