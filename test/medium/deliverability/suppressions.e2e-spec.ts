// GET, POST and DELETE /user/suppressions (docs/api.md#routes): the caller's list, paged like the message
// list, bare addresses keyed case-insensitively, each user's entries invisible to the others;
// a manual entry stops all mail or, asked, bulk mail only (docs/delivery-and-deliverability.md#suppressions), and an entry is never narrowed.
import { randomUUID } from 'node:crypto';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

// 64 + 1 + 63 + 1 + 63 + 1 + 57 + 4 = 254 characters: the longest address the rule takes.
const longestAddress = (extra = 0) =>
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57 + extra)}.com`;

describe('/user/suppressions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const add = (userId: string, body: object) => t.http.post('/user/suppressions').set(bearer(userId)).send(body);
  const list = (userId: string, query: Record<string, string | number> = {}) =>
    t.http.get('/user/suppressions').query(query).set(bearer(userId));
  const remove = (userId: string, email: string) =>
    t.http.delete(`/user/suppressions/${encodeURIComponent(email)}`).set(bearer(userId));
  const rowsOf = async (userId: string) =>
    await t.db.query<{ email: string; reason: string }[]>(
      `SELECT email, reason FROM suppressions WHERE user_id = $1 ORDER BY email`,
      [userId],
    );
  const scopesOf = async (userId: string) =>
    await t.db.query<{ email: string; reason: string; scope: string }[]>(
      `SELECT email, reason, scope FROM suppressions WHERE user_id = $1 ORDER BY email`,
      [userId],
    );
  const address = (label: string) => `${label}-${randomUUID()}@example.com`;

  it('adds an address as manual, lower-cased, and lists it; a second add keeps the entry', async () => {
    const userId = newUserId('suppress-add');
    const email = address('Ada');

    const { body } = await add(userId, { email }).expect(201);

    expect(body).toEqual({
      email: email.toLowerCase(),
      reason: 'manual',
      scope: 'all',
      messageId: null,
      createdAt: expect.any(String),
    });
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
    expect((await add(userId, { email: email.toUpperCase(), reason: 'manual' }).expect(201)).body).toEqual(body);
    expect((await list(userId).expect(200)).body).toEqual({
      suppressions: [body],
      take: 10,
      page: 1,
      skip: 0,
      total: 1,
      totalPages: 1,
      hasNext: false,
    });
  });

  it('adds a manual entry for bulk mail only when asked (scope bulk), and lists it with its scope', async () => {
    const userId = newUserId('suppress-bulk');
    const [bulk, all] = [address('bulk'), address('all')];

    const { body } = await add(userId, { email: bulk, reason: 'manual', scope: 'bulk' }).expect(201);
    await add(userId, { email: all, scope: 'all' }).expect(201);

    expect(body).toEqual({
      email: bulk,
      reason: 'manual',
      scope: 'bulk',
      messageId: null,
      createdAt: expect.any(String),
    });
    const listed = (await list(userId).expect(200)).body.suppressions;
    expect(listed.map((s: { email: string; scope: string }) => [s.email, s.scope]).sort()).toEqual(
      [
        [bulk, 'bulk'],
        [all, 'all'],
      ].sort(),
    );
    expect((await list(userId, { email: bulk }).expect(200)).body.suppressions).toEqual([body]);
  });

  it('never narrows an entry: a bulk request on an entry for all mail answers with that entry, unchanged', async () => {
    const userId = newUserId('suppress-no-narrowing');
    const email = address('wide');
    const wide = (await add(userId, { email }).expect(201)).body;

    const { body } = await add(userId, { email, scope: 'bulk' }).expect(201);

    expect(body).toEqual(wide);
    expect(await scopesOf(userId)).toEqual([{ email, reason: 'manual', scope: 'all' }]);
  });

  it('widens a bulk entry to all mail when asked, taking the new date', async () => {
    const userId = newUserId('suppress-widening');
    const email = address('narrow');
    await add(userId, { email, scope: 'bulk' }).expect(201);
    // Dated an hour back, so that the widened entry's date cannot equal it by chance.
    await t.db.query(`UPDATE suppressions SET created_at = created_at - interval '1 hour' WHERE user_id = $1`, [
      userId,
    ]);
    const narrow = (await list(userId).expect(200)).body.suppressions[0];
    const asked = Date.now();

    const { body } = await add(userId, { email, scope: 'all' }).expect(201);

    expect(body).toEqual({ ...narrow, scope: 'all', createdAt: expect.any(String) });
    expect(Date.parse(body.createdAt)).toBeGreaterThan(Date.parse(narrow.createdAt) + 30 * 60_000);
    expect(Math.abs(Date.parse(body.createdAt) - asked)).toBeLessThan(60_000);
    expect((await list(userId).expect(200)).body.suppressions).toEqual([body]);
    // A second bulk request leaves it as it is.
    expect((await add(userId, { email, scope: 'bulk' }).expect(201)).body).toEqual(body);
  });

  it('pages newest first, like the message list, and filters by address case-insensitively', async () => {
    const userId = newUserId('suppress-page');
    const added = [];
    for (let i = 0; i < 12; i++) added.push((await add(userId, { email: address(`p${i}`) }).expect(201)).body);
    const newestFirst = [...added].sort(
      (a, b) => b.createdAt.localeCompare(a.createdAt) || b.email.localeCompare(a.email),
    );

    const first = (await list(userId, { take: 5 }).expect(200)).body;
    const last = (await list(userId, { take: 5, page: 3 }).expect(200)).body;
    const past = (await list(userId, { take: 5, page: 4 }).expect(200)).body;

    expect(first).toEqual({
      suppressions: newestFirst.slice(0, 5),
      take: 5,
      page: 1,
      skip: 0,
      total: 12,
      totalPages: 3,
      hasNext: true,
    });
    expect(last).toEqual({
      suppressions: newestFirst.slice(10),
      take: 5,
      page: 3,
      skip: 10,
      total: 12,
      totalPages: 3,
      hasNext: false,
    });
    expect(past).toEqual({ suppressions: [], take: 5, page: 4, skip: 15, total: 12, totalPages: 3, hasNext: false });
    expect((await list(userId, { take: 100 }).expect(200)).body).toMatchObject({
      suppressions: newestFirst,
      take: 100,
      totalPages: 1,
    });
    const one = (await list(userId, { email: added[3].email.toUpperCase() }).expect(200)).body;
    expect(one).toMatchObject({ suppressions: [added[3]], total: 1 });
    expect((await list(userId, { email: address('absent') }).expect(200)).body).toMatchObject({
      suppressions: [],
      total: 0,
    });
  });

  it('removes an entry (204), then answers 404 for it', async () => {
    const userId = newUserId('suppress-remove');
    const email = address('gone');
    await add(userId, { email }).expect(201);

    await remove(userId, email.toUpperCase()).expect(204);

    expect(await rowsOf(userId)).toEqual([]);
    const { body } = await remove(userId, email).expect(404);
    expect(body).toMatchObject({ status: 404, title: 'Not Found', detail: expect.stringContaining(email) });
  });

  it("keeps each user's entries to that user: invisible to another, whose DELETE is 404 and changes nothing", async () => {
    const owner = newUserId('suppress-owner');
    const other = newUserId('suppress-other');
    const email = address('owned');
    await add(owner, { email }).expect(201);

    expect((await list(other).expect(200)).body).toMatchObject({ suppressions: [], total: 0 });
    expect((await list(other, { email }).expect(200)).body).toMatchObject({ suppressions: [], total: 0 });
    await remove(other, email).expect(404);

    expect(await rowsOf(owner)).toEqual([{ email, reason: 'manual' }]);
    // The other user may list the same address on their own list.
    await add(other, { email }).expect(201);
    expect(await rowsOf(other)).toEqual([{ email, reason: 'manual' }]);
  });

  it.each<[string, object, string]>([
    ['a bad address', { email: 'not-an-address' }, 'email'],
    ['a mailbox with a display name', { email: 'Ada <ada@example.com>' }, 'email'],
    ['no address', { reason: 'manual' }, 'email'],
    ['an unknown reason', { email: 'ada@example.com', reason: 'bored' }, 'reason'],
    // Only bounces, complaints and unsubscribes record these; the API adds manual entries only.
    ['a reason only the loop may give', { email: 'ada@example.com', reason: 'hard_bounce' }, 'reason'],
    ['an unknown field', { email: 'ada@example.com', messageId: randomUUID() }, 'messageId'],
    ['an unknown scope', { email: 'ada@example.com', scope: 'transactional' }, 'scope'],
    ['a scope in capitals', { email: 'ada@example.com', scope: 'BULK' }, 'scope'],
    ['an empty scope', { email: 'ada@example.com', scope: '' }, 'scope'],
    ['a scope that is no string', { email: 'ada@example.com', scope: ['bulk'] }, 'scope'],
    ['an address one past the longest', { email: longestAddress(1) }, 'email'],
  ])('refuses %s with a 400 naming the field, and stores nothing', async (_, body, field) => {
    const userId = newUserId('suppress-bad');

    const response = await add(userId, body).expect(400);

    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.errors).toEqual([expect.objectContaining({ field })]);
    expect(await rowsOf(userId)).toEqual([]);
  });

  it('takes the longest address the rule allows', async () => {
    const userId = newUserId('suppress-longest');
    expect(longestAddress()).toHaveLength(254);

    await add(userId, { email: longestAddress() }).expect(201);

    expect(await rowsOf(userId)).toEqual([{ email: longestAddress(), reason: 'manual' }]);
  });

  it.each<[string, Record<string, string | number>, string]>([
    ['a bad address filter', { email: 'nope' }, 'email'],
    ['take 0', { take: 0 }, 'take'],
    ['take 101', { take: 101 }, 'take'],
    ['page 0', { page: 0 }, 'page'],
  ])('refuses %s in the list with a 400', async (_, query, field) => {
    const { body } = await list(newUserId('suppress-query'), query).expect(400);
    expect(body.errors).toEqual([expect.objectContaining({ field })]);
  });

  it('answers a DELETE of something that is not an address with a 404, like any address not on the list, and removes nothing', async () => {
    const userId = newUserId('suppress-bad-delete');
    const email = address('kept');
    await add(userId, { email }).expect(201);

    const { body } = await remove(userId, 'not-an-address').expect(404);

    expect(body).toMatchObject({ status: 404, title: 'Not Found' });
    expect(await rowsOf(userId)).toEqual([{ email, reason: 'manual' }]);
  });

  it("accepts the document's example of POST /user/suppressions, as Swagger UI fills it in", async () => {
    const userId = newUserId('suppress-docs');
    const doc = (await t.http.get('/docs-json').expect(200)).body;
    const ref: string = doc.paths['/user/suppressions'].post.requestBody.content['application/json'].schema.$ref;
    const properties: Record<string, { example?: unknown; default?: unknown }> =
      doc.components.schemas[ref.split('/').pop()!].properties;
    const example = Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, p.example ?? p.default]));

    const { body } = await add(userId, example).expect(201);

    expect(body).toMatchObject({ email: example.email, reason: 'manual', scope: example.scope });
    await remove(userId, body.email).expect(204);
  });

  it('answers 401 without a token', async () => {
    await t.http.get('/user/suppressions').expect(401);
    await t.http.post('/user/suppressions').send({ email: 'ada@example.com' }).expect(401);
  });
});
