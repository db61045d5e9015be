// A session is read from the database on every request (docs/teams.md#signing-in), so what ends or
// changes it on one API process holds on another from its very next request: a removal, a sign-out,
// a role change. Two API processes on one database, as in production; nothing waits between the
// change and the next request, since no process may remember the session.
import { joinedMember, ownOrigin, PASSWORD, sessionCookieOf } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const send = { to: ['someone@example.com'], sender: 'app@example.com', subject: 'Hi', text: 'Hello' };

describe('sessions across API processes', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    [a, b] = await Promise.all([bootTestApp(), bootTestApp()]);
  });
  afterAll(() => Promise.all([a?.close(), b?.close()]));

  /** A member joined on `a`, signed in on `b` too: a cookie each process has already accepted. */
  async function memberOnBoth(role: string) {
    const account = newUserId('team');
    const email = `${newUserId('m')}@example.com`;
    const joined = await joinedMember(a, account, email, role);
    const onB = sessionCookieOf(await b.http.post('/session').send({ email, password: PASSWORD }).expect(200));
    await a.http.get('/user/messages').set('Cookie', joined.cookie).expect(200);
    await b.http.get('/user/messages').set('Cookie', joined.cookie).expect(200);
    await a.http.get('/user/messages').set('Cookie', onB).expect(200);
    return { account, email, id: joined.id, cookie: joined.cookie, onB };
  }

  it('refuses a member removed on one process on the other at its next request (401), each of its sessions', async () => {
    const member = await memberOnBoth('developer');
    const owner = await joinedMember(a, member.account, `${newUserId('o')}@example.com`, 'owner');

    await b.http.delete(`/user/members/${member.id}`).set('Cookie', owner.cookie).set(ownOrigin(b)).expect(204);

    for (const cookie of [member.cookie, member.onB]) {
      const refused = await a.http.get('/user/messages').set('Cookie', cookie);
      expect(refused.status).toBe(401);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      await a.http.get('/session').set('Cookie', cookie).expect(401);
      await a.http.post('/sender/send').set('Cookie', cookie).set(ownOrigin(a)).send(send).expect(401);
      await b.http.get('/user/messages').set('Cookie', cookie).expect(401);
    }
    // Signing in again finds no member either.
    await a.http.post('/session').send({ email: member.email, password: PASSWORD }).expect(401);
  });

  it('ends a session signed out on one process on the other at once (401), and only that session', async () => {
    const member = await memberOnBoth('viewer');

    await b.http.delete('/session').set('Cookie', member.cookie).set(ownOrigin(b)).expect(204);

    await a.http.get('/user/messages').set('Cookie', member.cookie).expect(401);
    await a.http.get('/session').set('Cookie', member.cookie).expect(401);
    await b.http.get('/session').set('Cookie', member.cookie).expect(401);
    // The member's other session, begun on b, lives on, on both.
    await a.http.get('/session').set('Cookie', member.onB).expect(200);
    await b.http.get('/session').set('Cookie', member.onB).expect(200);
  });

  it('holds a role change made on one process from the next request on the other: an admin made viewer', async () => {
    const member = await memberOnBoth('admin');
    const as = (app: TestApp) => ({ Cookie: member.cookie, ...ownOrigin(app) });
    await a.http.get('/user/members').set('Cookie', member.cookie).expect(200);
    await a.http.post('/sender/send').set(as(a)).send(send).expect(201);

    const changed = await b.http
      .patch(`/user/members/${member.id}`)
      .set(bearer(member.account))
      .send({ role: 'viewer' })
      .expect(200);
    expect(changed.body.role).toBe('viewer');

    const members = await a.http.get('/user/members').set('Cookie', member.cookie);
    expect(members.status).toBe(403);
    expect(members.headers['content-type']).toMatch(/^application\/problem\+json/);
    await a.http.post('/sender/send').set(as(a)).send(send).expect(403);
    await a.http.post('/user/members').set(as(a)).send({ email: 'x@example.com', role: 'viewer' }).expect(403);
    expect((await a.http.get('/session').set('Cookie', member.cookie).expect(200)).body.role).toBe('viewer');
    expect((await a.http.get('/user/me').set('Cookie', member.cookie).expect(200)).body.scopes).toEqual(['read']);
    await a.http.get('/user/messages').set('Cookie', member.cookie).expect(200);
    // Only the admin's one message (invitations are the system account's): nothing the viewer tried was kept.
    const [{ count }] = await a.db.query('SELECT count(*)::int AS count FROM messages WHERE user_id = $1', [
      member.account,
    ]);
    expect(count).toBe(1);
  });
});
