// Members and roles (docs/teams.md#members-and-roles): a member's session is limited by its role as an
// API key by its scopes; owners and admins manage members, an admin never an owner; the account
// keeps an active owner; a member's removal ends its sessions at once; one account never reaches
// another's members.
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { joinedMember, ownOrigin } from '../../support/members';

const send = { to: ['someone@example.com'], sender: 'app@example.com', subject: 'Hi', text: 'Hello' };

describe('members and roles', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });

  afterAll(() => t.close());

  it('lets a viewer read but not send (403)', async () => {
    const account = newUserId();
    const viewer = await joinedMember(t, account, 'viewer@example.com', 'viewer');

    await t.http.get('/user/messages').set('Cookie', viewer.cookie).expect(200);
    const refused = await t.http.post('/sender/send').set('Cookie', viewer.cookie).set(ownOrigin(t)).send(send);

    expect(refused.status).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body.detail).toContain('viewer');
  });

  it('lets a developer send and make keys, but not manage members (403)', async () => {
    const account = newUserId();
    const developer = await joinedMember(t, account, 'dev@example.com', 'developer');

    await t.http.post('/sender/send').set('Cookie', developer.cookie).set(ownOrigin(t)).send(send).expect(201);
    await t.http.get('/user/api-keys').set('Cookie', developer.cookie).expect(200);
    await t.http.get('/user/members').set('Cookie', developer.cookie).expect(403);
    await t.http
      .post('/user/members')
      .set('Cookie', developer.cookie)
      .set(ownOrigin(t))
      .send({ email: 'x@example.com', role: 'viewer' })
      .expect(403);
  });

  it('never lets an API key manage members (403), whatever its scopes', async () => {
    const account = newUserId();
    const key = (await t.http.post('/user/api-keys').set(bearer(account)).send({ name: 'all' }).expect(201)).body.key;

    const refused = await t.http
      .post('/user/members')
      .set('Authorization', `Bearer ${key}`)
      .send({ email: 'x@example.com', role: 'viewer' });

    expect(refused.status).toBe(403);
    await t.http.get('/user/members').set('Authorization', `Bearer ${key}`).expect(403);
  });

  it('answers an invitation with the invited member, and lists it; the same address again is 409, whatever its case', async () => {
    const account = newUserId();

    const { body } = await t.http
      .post('/user/members')
      .set(bearer(account))
      .send({ email: 'Grace@Example.com', role: 'developer' })
      .expect(201);

    expect(body).toMatchObject({
      email: 'Grace@Example.com',
      role: 'developer',
      status: 'invited',
      invitedBy: account,
    });
    expect(Date.parse(body.invitedAt)).not.toBeNaN();
    const list = await t.http.get('/user/members').set(bearer(account)).expect(200);
    expect(list.body.members).toEqual([expect.objectContaining({ id: body.id, status: 'invited', joinedAt: null })]);
    await t.http
      .post('/user/members')
      .set(bearer(account))
      .send({ email: 'grace@example.COM', role: 'viewer' })
      .expect(409);
  });

  it('lets an admin manage developers but not add, change or remove an owner (403)', async () => {
    const account = newUserId();
    const owner = await joinedMember(t, account, 'owner@example.com', 'owner');
    const admin = await joinedMember(t, account, 'admin@example.com', 'admin');
    const as = (cookie: string) => ({ Cookie: cookie, ...ownOrigin(t) });

    await t.http
      .post('/user/members')
      .set(as(admin.cookie))
      .send({ email: 'o2@example.com', role: 'owner' })
      .expect(403);
    await t.http.patch(`/user/members/${owner.id}`).set(as(admin.cookie)).send({ role: 'viewer' }).expect(403);
    await t.http.delete(`/user/members/${owner.id}`).set(as(admin.cookie)).expect(403);
    const dev = await t.http
      .post('/user/members')
      .set(as(admin.cookie))
      .send({ email: 'd@example.com', role: 'developer' })
      .expect(201);
    expect(dev.body.invitedBy).toBe('admin@example.com');
    const changed = await t.http.patch(`/user/members/${dev.body.id}`).set(as(admin.cookie)).send({ role: 'viewer' });
    expect(changed.status).toBe(200);
    expect(changed.body.role).toBe('viewer');
  });

  it('keeps the last owner: demoting or removing it is 409, until another owner is active', async () => {
    const account = newUserId();
    const owner = await joinedMember(t, account, 'only@example.com', 'owner');

    const demoted = await t.http.patch(`/user/members/${owner.id}`).set(bearer(account)).send({ role: 'admin' });
    expect(demoted.status).toBe(409);
    await t.http.delete(`/user/members/${owner.id}`).set(bearer(account)).expect(409);

    await joinedMember(t, account, 'second@example.com', 'owner');
    await t.http.patch(`/user/members/${owner.id}`).set(bearer(account)).send({ role: 'admin' }).expect(200);
  });

  it("ends a removed member's sessions at once", async () => {
    const account = newUserId();
    const dev = await joinedMember(t, account, 'gone@example.com', 'developer');
    await t.http.get('/session').set('Cookie', dev.cookie).expect(200);

    await t.http.delete(`/user/members/${dev.id}`).set(bearer(account)).expect(204);

    await t.http.get('/session').set('Cookie', dev.cookie).expect(401);
    await t.http.get('/user/messages').set('Cookie', dev.cookie).expect(401);
  });

  it("takes a role change into account on the member's next request", async () => {
    const account = newUserId();
    const dev = await joinedMember(t, account, 'demoted@example.com', 'developer');

    await t.http.patch(`/user/members/${dev.id}`).set(bearer(account)).send({ role: 'viewer' }).expect(200);

    await t.http.post('/sender/send').set('Cookie', dev.cookie).set(ownOrigin(t)).send(send).expect(403);
  });

  it("treats another account's member as one that does not exist (404), and a malformed id too", async () => {
    const mine = newUserId();
    const theirs = newUserId();
    const { body } = await t.http
      .post('/user/members')
      .set(bearer(theirs))
      .send({ email: 'x@example.com', role: 'viewer' })
      .expect(201);

    await t.http.patch(`/user/members/${body.id}`).set(bearer(mine)).send({ role: 'admin' }).expect(404);
    await t.http.delete(`/user/members/${body.id}`).set(bearer(mine)).expect(404);
    await t.http.delete('/user/members/not-a-uuid').set(bearer(mine)).expect(404);
    expect((await t.http.get('/user/members').set(bearer(mine)).expect(200)).body.members).toEqual([]);
  });

  it('refuses an unknown role and an address one past 254 characters (400), and takes 254', async () => {
    const account = newUserId();
    const at254 = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
    expect(at254).toHaveLength(254);

    await t.http.post('/user/members').set(bearer(account)).send({ email: at254, role: 'viewer' }).expect(201);
    const long = await t.http
      .post('/user/members')
      .set(bearer(account))
      .send({ email: `a${at254}`, role: 'viewer' });
    expect(long.status).toBe(400);
    expect(long.body.errors).toContainEqual({ field: 'email', message: 'must be 3 to 254 characters' });
    expect(new Set(long.body.errors.map((e: { field: string }) => e.field))).toEqual(new Set(['email']));
    const role = await t.http.post('/user/members').set(bearer(account)).send({ email: 'r@example.com', role: 'boss' });
    expect(role.status).toBe(400);
    expect(role.body.errors).toEqual([expect.objectContaining({ field: 'role' })]);
  });
});
