// Invitations (docs/teams.md#invitations): the mail from SYSTEM_MAIL_FROM with its link, delivered like
// any message; a token works once and for 7 days, and a used, expired, forged or withdrawn one is
// 404 alike; the password's bounds (12..256) and the name's (1..100), at the bound and one past.
import { SYSTEM_ACCOUNT_ID } from '../../../src/auth';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { invitationToken, PASSWORD, sessionCookieOf } from '../../support/members';

describe('invitations', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ PUBLIC_URL: 'https://mail.example.com' });
  });

  afterAll(() => t.close());

  const invite = async (role = 'developer') => {
    const account = newUserId();
    const email = `${newUserId('i')}@example.com`;
    const { body } = await t.http.post('/user/members').set(bearer(account)).send({ email, role }).expect(201);
    return { account, email, id: body.id as string, token: await invitationToken(t, account, email) };
  };
  const accept = (token: string, body: Record<string, unknown>) =>
    t.http.post(`/invitations/${token}/accept`).send(body);

  it('mails the link from SYSTEM_MAIL_FROM as a message of the system account, which the inviting account cannot read', async () => {
    const { account, email, token } = await invite();

    const [mail]: { sender: string; subject: string; text: string }[] = await t.db.query(
      `SELECT sender, subject, text FROM messages WHERE user_id = $1 AND $2 = ANY(recipients)`,
      [SYSTEM_ACCOUNT_ID, email],
    );
    expect(mail.subject).toBe('You are invited to Mailroom');
    expect(mail.text).toContain(`https://mail.example.com/console/invitation/${token}`);
    expect(mail.sender).toBe('Mailroom <no-reply@mail.example.com>');
    // Whoever reads the inviting account (a viewer, a key with read) must not accept in the invitee's name.
    const listed = await t.http.get('/user/messages').query({ take: 100 }).set(bearer(account)).expect(200);
    expect(listed.body.messages).toEqual([]);
  });

  it('signs the new member in (a Secure cookie under https) and works once: the second time is 404', async () => {
    const { account, email, id, token } = await invite('viewer');

    const accepted = await accept(token, { password: PASSWORD, name: 'Grace Hopper' });

    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      member: expect.objectContaining({ id, email, name: 'Grace Hopper', role: 'viewer', status: 'active' }),
      account: { userId: account },
      role: 'viewer',
      accounts: [{ userId: account, role: 'viewer' }],
    });
    expect(accepted.body.member.joinedAt).not.toBeNull();
    expect(String(accepted.headers['set-cookie'])).toMatch(/; Secure/);
    await t.http.get('/session').set('Cookie', sessionCookieOf(accepted)).expect(200);
    const again = await accept(token, { password: PASSWORD });
    expect(again.status).toBe(404);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    const stored: { invitation_hash: Buffer | null; password_hash: string }[] = await t.db.query(
      'SELECT invitation_hash, password_hash FROM members WHERE id = $1',
      [id],
    );
    expect(stored[0].invitation_hash).toBeNull();
    expect(stored[0].password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses an expired, a forged and a withdrawn invitation alike (404)', async () => {
    const expired = await invite();
    const withdrawn = await invite();
    await t.db.query(
      `UPDATE members SET invitation_expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`,
      [expired.id],
    );
    await t.http.delete(`/user/members/${withdrawn.id}`).set(bearer(withdrawn.account)).expect(204);

    const answers = await Promise.all(
      [expired.token, withdrawn.token, 'A'.repeat(43), 'not-a-token'].map((token) =>
        accept(token, { password: PASSWORD }),
      ),
    );

    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404]);
    expect(new Set(answers.map((a) => a.body.detail)).size).toBe(1);
  });

  it('takes a password of 12 and of 256 characters', async () => {
    const short = await invite();
    const long = await invite();

    await accept(short.token, { password: 'p'.repeat(12) }).expect(200);
    await accept(long.token, { password: 'p'.repeat(256) }).expect(200);
    await t.http
      .post('/session')
      .send({ email: long.email, password: 'p'.repeat(256) })
      .expect(200);
  });

  it('refuses a password of 11 or 257 characters and a name of 101 (400), leaving the invitation usable', async () => {
    const { token } = await invite();

    for (const body of [
      { password: 'p'.repeat(11) },
      { password: 'p'.repeat(257) },
      { password: PASSWORD, name: 'n'.repeat(101) },
    ]) {
      const refused = await accept(token, body);
      expect(refused.status).toBe(400);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body.errors).toHaveLength(1);
    }
    const accepted = await accept(token, { password: PASSWORD, name: 'n'.repeat(100) });
    expect(accepted.status).toBe(200);
    expect(accepted.body.member.name).toBe('n'.repeat(100));
  });
});
