// The team's own changes in the audit log (docs/teams.md#audit-log): invitations, joining, role
// changes, removals and sign-ins, succeeded and failed, each with its actor and client address,
// written with the change; a refused change and an unknown address write nothing.
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { invitationToken, ownOrigin, PASSWORD, sessionCookieOf } from '../../support/members';

interface Entry {
  actor: { type: string; id: string; label: string };
  action: string;
  target: { type: string; id: string };
  clientAddress: string;
  detail: Record<string, unknown>;
}

describe('the audit log of members and sign-ins', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close());

  const entries = async (account: string): Promise<Entry[]> =>
    (await t.http.get('/user/audit-log?take=100').set(bearer(account)).expect(200)).body.entries;

  it('records an invitation, the joining, sign-ins, a role change and a removal, each with its actor', async () => {
    const account = newUserId('team');
    const email = `${newUserId('m')}@example.com`;
    const invited = await t.http.post('/user/members').set(bearer(account)).send({ email, role: 'owner' }).expect(201);
    const id = invited.body.id as string;
    const token = await invitationToken(t, account, email);
    await t.http.post(`/invitations/${token}/accept`).send({ password: PASSWORD }).expect(200);
    await t.http
      .post('/session')
      .send({ email, password: `${PASSWORD}!` })
      .expect(401);
    const signedIn = await t.http.post('/session').send({ email, password: PASSWORD }).expect(200);
    const cookie = sessionCookieOf(signedIn);
    // The only owner may not step down: refused, so not recorded.
    await t.http
      .patch(`/user/members/${id}`)
      .set('Cookie', cookie)
      .set(ownOrigin(t))
      .send({ role: 'admin' })
      .expect(409);
    const second = `${newUserId('m')}@example.com`;
    const other = await t.http
      .post('/user/members')
      .set('Cookie', cookie)
      .set(ownOrigin(t))
      .send({ email: second, role: 'viewer' })
      .expect(201);
    await t.http.patch(`/user/members/${other.body.id}`).set(bearer(account)).send({ role: 'developer' }).expect(200);
    await t.http.delete(`/user/members/${other.body.id}`).set('Cookie', cookie).set(ownOrigin(t)).expect(204);

    const jwt = { type: 'jwt', id: account, label: account };
    const member = { type: 'member', id, label: email };
    const otherTarget = { type: 'member', id: other.body.id };
    expect(
      (await entries(account))
        .reverse()
        .map(({ actor, action, target, detail }) => ({ actor, action, target, detail })),
    ).toEqual([
      { actor: jwt, action: 'member.invited', target: { type: 'member', id }, detail: { email, role: 'owner' } },
      { actor: member, action: 'member.joined', target: { type: 'member', id }, detail: { email, role: 'owner' } },
      { actor: member, action: 'member.sign_in_failed', target: { type: 'member', id }, detail: {} },
      { actor: member, action: 'member.signed_in', target: { type: 'member', id }, detail: {} },
      { actor: member, action: 'member.invited', target: otherTarget, detail: { email: second, role: 'viewer' } },
      { actor: jwt, action: 'member.role_changed', target: otherTarget, detail: { email: second, role: 'developer' } },
      { actor: member, action: 'member.removed', target: otherTarget, detail: { email: second, role: 'developer' } },
    ]);
    for (const entry of await entries(account)) expect(entry.clientAddress).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it('records nothing for a sign-in with an address no account has', async () => {
    const nobody = `${newUserId('nobody')}@example.com`;
    await t.http.post('/session').send({ email: nobody, password: PASSWORD }).expect(401);
    const account = newUserId('witness');
    // A change after it, recorded: once its entry is there, the refused sign-in's would be too.
    await t.http
      .post('/user/members')
      .set(bearer(account))
      .send({ email: 'w@example.com', role: 'viewer' })
      .expect(201);
    expect((await entries(account)).map((e) => e.action)).toEqual(['member.invited']);
    const naming: { n: number }[] = await t.db.query(
      `SELECT count(*)::int AS n FROM audit_log_entries WHERE actor_label = $1 OR detail->>'email' = $1`,
      [nobody],
    );
    expect(naming[0].n).toBe(0);
  });
});
