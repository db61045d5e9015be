// The start-up banner's invitation (docs/teams.md#the-first-owner): while an account has no active
// member each start makes a new link and withdraws the previous start's; once someone joined, none.
// (main.ts shows it for the account `ada`; the test uses an account of its own.)
import { FirstOwnerInvitation } from '../../../src/auth/members/first-owner-invitation';
import { PASSWORD } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('the first owner’s invitation of the start-up banner', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });

  afterAll(() => t.close());

  const tokenOf = (link: string) => link.split('/console/invitation/')[1];

  it('makes a new owner link at each start while the account has none, the previous one withdrawn', async () => {
    const account = newUserId();
    const invitations = t.app.get(FirstOwnerInvitation);

    const first = await invitations.linkWhileNoMember(account);
    const second = await invitations.linkWhileNoMember(account);

    expect(first).toEqual({
      account,
      email: `${account}@example.com`,
      link: expect.stringMatching(
        new RegExp(`^${t.config.deliverability.publicUrl}/console/invitation/[A-Za-z0-9_-]{43}$`),
      ),
    });
    expect(second!.link).not.toBe(first!.link);
    await t.http
      .post(`/invitations/${tokenOf(first!.link)}/accept`)
      .send({ password: PASSWORD })
      .expect(404);
    const accepted = await t.http.post(`/invitations/${tokenOf(second!.link)}/accept`).send({ password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ account: { userId: account }, role: 'owner' });
    const { body } = await t.http.get('/user/members').set(bearer(account)).expect(200);
    expect(body.members).toEqual([
      expect.objectContaining({ email: `${account}@example.com`, invitedBy: 'start-up banner', status: 'active' }),
    ]);
  });

  it('makes none once the account has an active member', async () => {
    const account = newUserId();
    const invitations = t.app.get(FirstOwnerInvitation);
    const made = await invitations.linkWhileNoMember(account);
    await t.http
      .post(`/invitations/${tokenOf(made!.link)}/accept`)
      .send({ password: PASSWORD })
      .expect(200);

    expect(await invitations.linkWhileNoMember(account)).toBeUndefined();
  });

  it('leaves an invitation of that address made by someone else standing, and makes none', async () => {
    const account = newUserId();
    await t.http
      .post('/user/members')
      .set(bearer(account))
      .send({ email: `${account}@example.com`, role: 'admin' })
      .expect(201);

    expect(await t.app.get(FirstOwnerInvitation).linkWhileNoMember(account)).toBeUndefined();
    const { body } = await t.http.get('/user/members').set(bearer(account)).expect(200);
    expect(body.members).toEqual([expect.objectContaining({ invitedBy: account, status: 'invited' })]);
  });
});
