// POST, GET and DELETE /domains (docs/api.md#routes, docs/delivery-and-deliverability.md): a sending domain with its DKIM key pair and the DNS
// records to publish, each user's domains invisible to the others, bad input refused whole.
import { createPrivateKey, createPublicKey, randomUUID } from 'node:crypto';
import { DkimKeyCipher } from '../../../src/deliverability/domains/dkim-key-cipher';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const uniqueDomain = (label = 'd') => `${label}${randomUUID().slice(0, 8)}.example`;
// Four labels (63, 63, 63 and 61 characters) and their dots: 253 characters, the most DNS takes.
const nameOfLength = (length: number) =>
  ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(length - 192)].join('.');

describe('/domains', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const create = (userId: string, body: unknown) =>
    t.http
      .post('/domains')
      .set(bearer(userId))
      .send(body as object);
  const rowsOf = async (userId: string): Promise<{ name: string }[]> =>
    t.db.query(`SELECT name FROM sending_domains WHERE user_id = $1 ORDER BY created_at`, [userId]);

  it('registers a domain: a fresh RSA-2048 key, a selector, and the three records to publish, pending', async () => {
    const userId = newUserId('domain-create');
    const name = uniqueDomain();

    const response = await create(userId, { name: name.toUpperCase() }).expect(201);

    const { id, dkim } = response.body;
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      name,
      status: 'pending',
      dkim: { selector: expect.stringMatching(/^mr\d{6}[0-9a-f]{8}$/), publicKey: expect.any(String) },
      dnsRecords: [
        {
          type: 'TXT',
          name: `${dkim.selector}._domainkey.${name}`,
          host: `${dkim.selector}._domainkey`,
          zone: name,
          value: `v=DKIM1; k=rsa; p=${dkim.publicKey}`,
          ttl: 3600,
          purpose: 'dkim',
          required: true,
        },
        // No SMTP_URL (the outbox) and no BOUNCE_DOMAIN: the domain's own MX hosts, at the domain itself.
        {
          type: 'TXT',
          name,
          host: '@',
          zone: name,
          value: 'v=spf1 mx ~all',
          ttl: 3600,
          purpose: 'spf',
          required: false,
        },
        {
          type: 'TXT',
          name: `_dmarc.${name}`,
          host: '_dmarc',
          zone: name,
          value: 'v=DMARC1; p=none; adkim=r; aspf=r',
          ttl: 3600,
          purpose: 'dmarc',
          required: false,
        },
      ],
      verifiedAt: null,
      receiving: false,
      receivingStopped: null,
    });
    expect(response.headers.location).toBe(`/domains/${id}`);
    const publicKey = createPublicKey({ key: Buffer.from(dkim.publicKey, 'base64'), format: 'der', type: 'spki' });
    expect(publicKey.asymmetricKeyType).toBe('rsa');
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect((await t.http.get(`/domains/${id}`).set(bearer(userId)).expect(200)).body).toEqual(response.body);
    expect((await t.http.get('/domains').set(bearer(userId)).expect(200)).body).toEqual({ domains: [response.body] });
  });

  it('stores the private key encrypted: the row opens only with the configured key, into the pair of the published key', async () => {
    const userId = newUserId('domain-key');
    const { body } = await create(userId, { name: uniqueDomain() }).expect(201);

    const [row] = await t.db.query(`SELECT private_key FROM sending_domains WHERE id = $1`, [body.id]);

    expect(() => createPrivateKey({ key: row.private_key, format: 'der', type: 'pkcs8' })).toThrow();
    const opened = new DkimKeyCipher(t.config).open(row.private_key, body.id);
    const publicOfStored = createPublicKey(createPrivateKey({ key: opened, format: 'der', type: 'pkcs8' })).export({
      type: 'spki',
      format: 'der',
    });
    expect(publicOfStored.toString('base64')).toBe(body.dkim.publicKey);
    expect(JSON.stringify(body)).not.toContain(opened.toString('base64').slice(40, 80));
  });

  it('takes a name of 253 characters and an internationalized one, stored in A-label form', async () => {
    const userId = newUserId('domain-names');

    expect((await create(userId, { name: nameOfLength(253) }).expect(201)).body.name).toBe(nameOfLength(253));
    expect((await create(userId, { name: 'Bücher.Example' }).expect(201)).body.name).toBe('xn--bcher-kva.example');
    expect(await rowsOf(userId)).toEqual([{ name: nameOfLength(253) }, { name: 'xn--bcher-kva.example' }]);
  });

  it.each<[string, unknown, string]>([
    ['a name of 254 characters', { name: nameOfLength(254) }, 'name'],
    ['a label of 64 characters', { name: `${'a'.repeat(64)}.example` }, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name of one label', { name: 'localhost' }, 'name'],
    ['an address', { name: 'ada@example.com' }, 'name'],
    ['an IP address', { name: '192.0.2.1' }, 'name'],
    ['a URL', { name: 'https://example.com' }, 'name'],
    ['an underscore', { name: '_dmarc.example.com' }, 'name'],
    ['a trailing dot', { name: 'example.com.' }, 'name'],
    ['a line break', { name: 'example.com\r\nX: y' }, 'name'],
    ['a number', { name: 42 }, 'name'],
    ['an array', { name: ['example.com'] }, 'name'],
    ['an object', { name: { name: 'example.com' } }, 'name'],
    ['null', { name: null }, 'name'],
    ['no name', {}, 'name'],
    ['an unknown field', { name: 'fine.example', selector: 'mine' }, 'selector'],
    ['a field named like an Object method', { name: 'fine.example', toString: 'x' }, 'toString'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_, body, field) => {
    const userId = newUserId('domain-bad');

    const response = await create(userId, body).expect(400);

    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      status: 400,
      title: 'Bad Request',
      errors: [expect.objectContaining({ field })],
    });
    expect(await rowsOf(userId)).toEqual([]);
  });

  it('refuses a body that is not a JSON object, and stores nothing', async () => {
    const userId = newUserId('domain-body');

    await t.http.post('/domains').set(bearer(userId)).set('Content-Type', 'text/plain').send('example.com').expect(415);
    await t.http
      .post('/domains')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .send('"example.com"')
      .expect(400);
    await t.http
      .post('/domains')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .send('{"name":')
      .expect(400);
    expect(await rowsOf(userId)).toEqual([]);
  });

  it('answers 409 to a name the user has already, in any case; another user gets it with a key and selector of their own', async () => {
    const owner = newUserId('domain-dup');
    const other = newUserId('domain-dup-other');
    const name = uniqueDomain();
    const first = (await create(owner, { name }).expect(201)).body;

    const again = await create(owner, { name: name.toUpperCase() }).expect(409);
    const theirs = (await create(other, { name }).expect(201)).body;

    expect(again.body).toMatchObject({ status: 409, title: 'Conflict', detail: expect.stringContaining(name) });
    expect(await rowsOf(owner)).toEqual([{ name }]);
    expect(theirs.name).toBe(name);
    expect(theirs.dkim.selector).not.toBe(first.dkim.selector);
    expect(theirs.dkim.publicKey).not.toBe(first.dkim.publicKey);
  });

  it('takes 100 domains per user and answers the 101st with 409, storing nothing', async () => {
    const userId = newUserId('domain-limit');
    // 99 placeholder rows (no key is made for them), then the real 100th through the API.
    await t.db.query(
      `INSERT INTO sending_domains (id, user_id, name, selector, public_key, private_key, created_at)
       SELECT gen_random_uuid(), $1, 'filler' || i || '.' || $2, 'mr' || i, 'x', '\\x00', now() FROM generate_series(1, 99) i`,
      [userId, uniqueDomain()],
    );
    await create(userId, { name: uniqueDomain('hundredth') }).expect(201);

    const response = await create(userId, { name: uniqueDomain('one-more') }).expect(409);

    expect(response.body.detail).toMatch(/100 sending domains/);
    expect(await rowsOf(userId)).toHaveLength(100);
    await create(newUserId('domain-limit-other'), { name: uniqueDomain() }).expect(201);
  });

  it('holds the limit and the one-name rule under concurrent requests', async () => {
    const userId = newUserId('domain-race');
    await t.db.query(
      `INSERT INTO sending_domains (id, user_id, name, selector, public_key, private_key, created_at)
       SELECT gen_random_uuid(), $1, 'filler' || i || '.' || $2, 'mr' || i, 'x', '\\x00', now() FROM generate_series(1, 97) i`,
      [userId, uniqueDomain()],
    );
    const same = uniqueDomain('same');

    const statuses = await Promise.all(
      [
        ...Array.from({ length: 3 }, () => create(userId, { name: same })),
        ...Array.from({ length: 3 }, () => create(userId, { name: uniqueDomain('race') })),
      ].map(async (request) => (await request).status),
    );

    // 97 + 3 = 100: one of the three same-name requests and two of the others get in, in some order.
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 409)).toHaveLength(3);
    expect(await rowsOf(userId)).toHaveLength(100);
    expect((await rowsOf(userId)).filter((row) => row.name === same).length).toBeLessThanOrEqual(1);
  });

  it('deletes a domain (204); then it is 404 everywhere and gone from the list', async () => {
    const userId = newUserId('domain-delete');
    const kept = (await create(userId, { name: uniqueDomain('kept') }).expect(201)).body;
    const { id } = (await create(userId, { name: uniqueDomain('gone') }).expect(201)).body;

    await t.http.delete(`/domains/${id}`).set(bearer(userId)).expect(204);

    for (const request of [
      t.http.get(`/domains/${id}`),
      t.http.post(`/domains/${id}/verify`),
      t.http.delete(`/domains/${id}`),
    ]) {
      expect((await request.set(bearer(userId)).expect(404)).body).toMatchObject({
        status: 404,
        detail: `Domain ${id} does not exist.`,
      });
    }
    expect((await t.http.get('/domains').set(bearer(userId)).expect(200)).body).toEqual({ domains: [kept] });
  });

  it("answers another user's domain id, an unknown one and a malformed one alike: 404, and changes nothing", async () => {
    const owner = newUserId('domain-owner');
    const prober = newUserId('domain-prober');
    const domain = (await create(owner, { name: uniqueDomain() }).expect(201)).body;
    const unknown = randomUUID();
    const probes = (id: string) => [
      t.http.get(`/domains/${id}`),
      t.http.post(`/domains/${id}/verify`),
      t.http.delete(`/domains/${id}`),
    ];
    const observed = async (id: string) =>
      Promise.all(
        probes(id).map(async (request) => {
          const { status, body } = await request.set(bearer(prober));
          return { status, detail: body.detail.replace(id, '<id>'), title: body.title };
        }),
      );

    expect(await observed(domain.id)).toEqual(await observed(unknown));
    expect(await observed(domain.id)).toEqual(
      Array(3).fill({ status: 404, title: 'Not Found', detail: 'Domain <id> does not exist.' }),
    );
    for (const malformed of ['not-a-uuid', domain.id.replace(/-/g, ''), `${domain.id}x`]) {
      expect((await observed(malformed)).map((o) => o.status)).toEqual([404, 404, 404]);
    }
    expect((await t.http.get('/domains').set(bearer(prober)).expect(200)).body).toEqual({ domains: [] });
    expect((await t.http.get(`/domains/${domain.id}`).set(bearer(owner)).expect(200)).body).toEqual(domain);
  });

  it('needs a token on every route', async () => {
    for (const request of [
      t.http.get('/domains'),
      t.http.post('/domains').send({ name: 'x.example' }),
      t.http.get(`/domains/${randomUUID()}`),
    ]) {
      expect((await request.expect(401)).body.status).toBe(401);
    }
  });
});

describe('/domains with a relay and BOUNCE_DOMAIN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({
      SMTP_URL: 'smtp://user:secret@relay.example.net:587',
      BOUNCE_DOMAIN: 'Bounces.Mailroom.example',
    });
  });
  afterAll(() => t.close());

  it("hints SPF for the envelope sender's domain, BOUNCE_DOMAIN, naming the relay of SMTP_URL", async () => {
    const name = uniqueDomain();

    const { body } = await t.http
      .post('/domains')
      .set(bearer(newUserId('domain-spf')))
      .send({ name })
      .expect(201);

    expect(body.dnsRecords.find((r: { purpose: string }) => r.purpose === 'spf')).toEqual({
      type: 'TXT',
      name: 'bounces.mailroom.example',
      host: '@',
      zone: 'bounces.mailroom.example',
      value: 'v=spf1 a:relay.example.net ~all',
      ttl: 3600,
      purpose: 'spf',
      required: false,
    });
  });
});

describe('/domains under direct delivery', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({
      SMTP_URL: 'direct',
      DELIVERY_HELO_NAME: 'out.mailroom.example',
      DELIVERY_SOURCE_ADDRESSES: '192.0.2.10,2001:db8::10',
    });
  });
  afterAll(() => t.close());

  it('hints SPF naming the addresses mail leaves from (DELIVERY_SOURCE_ADDRESSES), not the domain’s MX hosts', async () => {
    const name = uniqueDomain();

    const { body } = await t.http
      .post('/domains')
      .set(bearer(newUserId('domain-spf-direct')))
      .send({ name })
      .expect(201);

    expect(body.dnsRecords.find((r: { purpose: string }) => r.purpose === 'spf')).toMatchObject({
      name,
      host: '@',
      value: 'v=spf1 ip4:192.0.2.10 ip6:2001:db8::10 ~all',
      purpose: 'spf',
    });
  });
});
