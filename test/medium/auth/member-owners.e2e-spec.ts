// Owners against everyone else (docs/teams.md#members-and-roles): an admin never makes, changes or
// removes an owner, by any way in (a role change of another member or of itself, an invitation's
// withdrawal), and the account keeps an active owner, even when two owners demote each other at once.
// (members.e2e-spec.ts has the plain cases; sessions.e2e-spec.ts the 10 failed sign-ins.)
import { accountState } from '../../support/api-operations';
import { joinedMember, ownOrigin, PASSWORD } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('owners', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ TRUST_PROXY: '127.0.0.1,::1' });
  });
  afterAll(() => t?.close());

  const as = (cookie: string) => ({ Cookie: cookie, ...ownOrigin(t) });
  const email = (label: string) => `${newUserId(label)}@example.com`;
  const ownersOf = async (account: string): Promise<string[]> =>
    (
      await t.db.query(
        `SELECT email FROM members WHERE account_id = $1 AND role = 'owner' AND status = 'active' ORDER BY email`,
        [account],
      )
    ).map((row: { email: string }) => row.email);

  it('refuses an admin making anyone owner, itself too, or touching an invited owner (403), changing nothing', async () => {
    const account = newUserId('team');
    await joinedMember(t, account, email('owner'), 'owner');
    const admin = await joinedMember(t, account, email('admin'), 'admin');
    const dev = await joinedMember(t, account, email('dev'), 'developer');
    const invitedOwner = (
      await t.http
        .post('/user/members')
        .set(bearer(account))
        .send({ email: email('next'), role: 'owner' })
        .expect(201)
    ).body.id as string;
    const before = await accountState(t.db, account);

    const refusals = [
      t.http.patch(`/user/members/${dev.id}`).set(as(admin.cookie)).send({ role: 'owner' }),
      t.http.patch(`/user/members/${admin.id}`).set(as(admin.cookie)).send({ role: 'owner' }),
      t.http.patch(`/user/members/${invitedOwner}`).set(as(admin.cookie)).send({ role: 'viewer' }),
      t.http.delete(`/user/members/${invitedOwner}`).set(as(admin.cookie)),
    ];
    for (const refused of await Promise.all(refusals)) {
      expect(refused.status).toBe(403);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    }

    expect(await accountState(t.db, account)).toEqual(before);
    expect((await t.http.get('/session').set('Cookie', admin.cookie).expect(200)).body.role).toBe('admin');
  });

  it('keeps the last active owner when it demotes or removes itself (409); an invited owner does not count', async () => {
    const account = newUserId('team');
    const owner = await joinedMember(t, account, email('owner'), 'owner');
    await t.http
      .post('/user/members')
      .set(as(owner.cookie))
      .send({ email: email('next'), role: 'owner' })
      .expect(201);
    const before = await accountState(t.db, account);

    for (const role of ['admin', 'developer', 'viewer']) {
      const demoted = await t.http.patch(`/user/members/${owner.id}`).set(as(owner.cookie)).send({ role });
      expect(demoted.status).toBe(409);
      expect(demoted.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    await t.http.delete(`/user/members/${owner.id}`).set(as(owner.cookie)).expect(409);

    expect(await accountState(t.db, account)).toEqual(before);
    expect(await ownersOf(account)).toHaveLength(1);
  });

  // The loser's answer depends on when its session was read: before the winner's change, the
  // account's last owner is kept (409); after it, it is an admin who may not touch an owner (403), or
  // removed, no longer signed in (401). Either way, exactly one change is made and an owner stays.
  it.each([
    [
      'demote',
      200,
      403,
      (id: string, cookie: string) => t.http.patch(`/user/members/${id}`).set(as(cookie)).send({ role: 'admin' }),
    ],
    ['remove', 204, 401, (id: string, cookie: string) => t.http.delete(`/user/members/${id}`).set(as(cookie))],
  ] as const)(
    'lets only one of two owners who %s each other at once succeed (%i), the other refused, and an owner stays',
    async (_verb, done, late, change) => {
      for (let round = 0; round < 5; round++) {
        const account = newUserId('team');
        const first = await joinedMember(t, account, email('first'), 'owner');
        const second = await joinedMember(t, account, email('second'), 'owner');

        const answers = await Promise.all([change(second.id, first.cookie), change(first.id, second.cookie)]);

        const statuses = answers.map((r) => r.status);
        expect(statuses.filter((s) => s === done)).toHaveLength(1);
        const refused = statuses.filter((s) => s !== done);
        expect(refused).toHaveLength(1);
        expect([409, late]).toContain(refused[0]);
        expect(await ownersOf(account)).toHaveLength(1);
      }
    },
  );

  it('counts failed sign-ins per address whatever its case: the tenth in any case refuses the right password (429)', async () => {
    const address = email('case');
    await joinedMember(t, newUserId('team'), address, 'viewer');
    const from = {
      'X-Forwarded-For': `10.77.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`,
    };
    const cased = (i: number) => [...address].map((c, k) => ((i >> (k % 8)) & 1 ? c.toUpperCase() : c)).join('');

    for (let i = 0; i < 10; i++)
      await t.http
        .post('/session')
        .set(from)
        .send({ email: cased(i + 1), password: `wrong ${i}` })
        .expect(401);
    const refused = await t.http.post('/session').set(from).send({ email: address, password: PASSWORD });

    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
