// Switching accounts (docs/teams.md#several-accounts): a person whose address is an active member
// of several accounts, each with its own password, moves from one to another with the session it
// has: a new cookie for the member of the other account, the old session ended, Origin checked,
// and 404 for an account where the address is no active member.
import { randomInt } from 'node:crypto';
import { invitationToken, joinedMember, ownOrigin, PASSWORD, sessionCookieOf } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('POST /session/account', () => {
  let t: TestApp;
  const client = () => ({ 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });

  beforeAll(async () => {
    t = await bootTestApp({ TRUST_PROXY: '127.0.0.1,::1' });
  });

  afterAll(() => t.close());

  /** One address, an active member of two accounts with a password each (the second: admin). */
  const person = async () => {
    const first = newUserId();
    const second = newUserId();
    const email = `${newUserId('m')}@example.com`;
    const joined = await joinedMember(t, first, email, 'developer');
    const invited = await t.http.post('/user/members').set(bearer(second)).send({ email, role: 'admin' }).expect(201);
    const token = await invitationToken(t, second, email);
    await t.http.post(`/invitations/${token}/accept`).send({ password: 'another account’s password' }).expect(200);
    return { email, first, second, cookie: joined.cookie, firstId: joined.id, secondId: invited.body.id as string };
  };

  it('answers as POST /session with a new cookie for the member of that account, and ends the old session', async () => {
    const { email, first, second, secondId, cookie } = await person();

    const switched = await t.http
      .post('/session/account')
      .set('Cookie', cookie)
      .set(ownOrigin(t))
      .send({ userId: second });

    expect(switched.status).toBe(200);
    expect(switched.body).toEqual({
      member: expect.objectContaining({ id: secondId, email, role: 'admin', status: 'active' }),
      account: { userId: second },
      role: 'admin',
      // Both memberships, by userId: what the console offers to switch between.
      accounts: [
        { userId: first, role: 'developer' },
        { userId: second, role: 'admin' },
      ].sort((a, b) => (a.userId < b.userId ? -1 : 1)),
    });
    const line = ([] as string[])
      .concat(switched.headers['set-cookie'])
      .find((c) => c.startsWith('mailroom_session='))!;
    expect(line).toMatch(/; HttpOnly; SameSite=Lax/);
    const now = sessionCookieOf(switched);
    expect(now).not.toBe(cookie);
    const { body } = await t.http.get('/session').set('Cookie', now).expect(200);
    expect(body.account).toEqual({ userId: second });
    // The member of the new account acts in it, with its own role.
    await t.http.get('/user/members').set('Cookie', now).expect(200);
    await t.http.get('/session').set('Cookie', cookie).expect(401);
    const audit = await t.http.get('/user/audit-log?action=member.signed_in').set(bearer(second)).expect(200);
    expect(audit.body.entries[0]).toMatchObject({ actor: { type: 'member', id: secondId }, detail: { from: first } });
  });

  it('switches back and forth, each way a new session', async () => {
    const { first, second, firstId, cookie } = await person();

    const there = sessionCookieOf(
      await t.http
        .post('/session/account')
        .set('Cookie', cookie)
        .set(ownOrigin(t))
        .send({ userId: second })
        .expect(200),
    );
    const back = await t.http.post('/session/account').set('Cookie', there).set(ownOrigin(t)).send({ userId: first });

    expect(back.status).toBe(200);
    expect(back.body.member.id).toBe(firstId);
    await t.http.get('/session').set('Cookie', sessionCookieOf(back)).expect(200);
  });

  it('is 404 where the address is no member, or only invited; the session stays', async () => {
    const { email, cookie } = await person();
    const invitedOnly = newUserId();
    await t.http.post('/user/members').set(bearer(invitedOnly)).send({ email, role: 'viewer' }).expect(201);

    const stranger = await t.http
      .post('/session/account')
      .set('Cookie', cookie)
      .set(ownOrigin(t))
      .send({ userId: newUserId() });
    const invited = await t.http
      .post('/session/account')
      .set('Cookie', cookie)
      .set(ownOrigin(t))
      .send({ userId: invitedOnly });

    expect(stranger.status).toBe(404);
    expect(stranger.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(invited.status).toBe(404);
    expect(stranger.headers['set-cookie']).toBeUndefined();
    await t.http.get('/session').set('Cookie', cookie).expect(200);
  });

  it('checks Origin as every cookie change (403), and needs a session (401)', async () => {
    const { second, cookie, first } = await person();

    const none = await t.http.post('/session/account').set('Cookie', cookie).send({ userId: second });
    const foreign = await t.http
      .post('/session/account')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .send({ userId: second });
    const jwt = await t.http.post('/session/account').set(bearer(first)).send({ userId: second });
    const anonymous = await t.http.post('/session/account').set(client()).send({ userId: second });

    expect(none.status).toBe(403);
    expect(foreign.status).toBe(403);
    expect(jwt.status).toBe(401);
    expect(anonymous.status).toBe(401);
    await t.http.get('/session').set('Cookie', cookie).expect(200);
  });

  it('takes an account id of 255 characters and refuses 256 (400)', async () => {
    const { cookie } = await person();

    const longest = await t.http
      .post('/session/account')
      .set('Cookie', cookie)
      .set(ownOrigin(t))
      .send({ userId: 'a'.repeat(255) });
    const tooLong = await t.http
      .post('/session/account')
      .set('Cookie', cookie)
      .set(ownOrigin(t))
      .send({ userId: 'a'.repeat(256) });
    const missing = await t.http.post('/session/account').set('Cookie', cookie).set(ownOrigin(t)).send({});

    expect(longest.status).toBe(404);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ field: 'userId' })]);
    expect(missing.status).toBe(400);
  });

  it('needs no password: the member of the other account signs in with its own, unchanged', async () => {
    const { email, second, cookie } = await person();

    await t.http.post('/session/account').set('Cookie', cookie).set(ownOrigin(t)).send({ userId: second }).expect(200);

    const signedIn = await t.http
      .post('/session')
      .set(client())
      .send({ email, password: 'another account’s password' });
    expect(signedIn.body.account).toEqual({ userId: second });
    const other = await t.http.post('/session').set(client()).send({ email, password: PASSWORD });
    expect(other.status).toBe(200);
  });
});
