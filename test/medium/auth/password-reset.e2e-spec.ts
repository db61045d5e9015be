// Password reset (docs/teams.md#password-reset): a real mail through the service's own intake, the
// link's token read from the account's messages; one answer for every address, the link usable
// once and for 30 minutes, the new password's length checked at its bounds, every session of the
// member ended, and the reset in the audit log. TRUST_PROXY names the test's loopback as a proxy,
// so that each test is its own client of the throttle.
import { randomInt } from 'node:crypto';
import { SYSTEM_ACCOUNT_ID } from '../../../src/auth';
import { PasswordResets } from '../../../src/auth/password-reset/password-resets';
import {
  invitationToken,
  joinedMember,
  ownOrigin,
  PASSWORD,
  passwordResetToken,
  sessionCookieOf,
} from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('password reset', () => {
  let t: TestApp;
  const client = () => ({ 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
  const NEW_PASSWORD = 'a brand new passphrase';

  beforeAll(async () => {
    t = await bootTestApp({ TRUST_PROXY: '127.0.0.1,::1' });
  });

  afterAll(() => t.close());

  const member = async () => {
    const account = newUserId();
    const email = `${newUserId('m')}@example.com`;
    const joined = await joinedMember(t, account, email, 'developer');
    return { account, email, ...joined };
  };

  /** Asks for a reset and waits for its mail, which is sent after the answer. */
  const ask = async (email: string, from = client()) => {
    const answer = await t.http.post('/password-reset').set(from).send({ email });
    await t.app.get(PasswordResets).settled();
    return answer;
  };

  const tokenFor = async (account: string, email: string) => {
    const token = await passwordResetToken(t, account, email);
    if (!token) throw new Error(`No password reset mail to ${email}`);
    return token;
  };

  it('mails an active member a link; through it the new password signs in, the old one no longer', async () => {
    const { account, email, id } = await member();

    const asked = await ask(email.toUpperCase());
    const token = await tokenFor(account, email);
    const reset = await t.http.post(`/password-reset/${token}`).set(client()).send({ password: NEW_PASSWORD });

    expect(asked.status).toBe(202);
    expect(asked.text).toBe('');
    expect(reset.status).toBe(204);
    const [mail]: { sender: string; text: string }[] = await t.db.query(
      `SELECT sender, text FROM messages WHERE user_id = $1 AND subject = 'Reset your Mailroom password' AND $2 = ANY(recipients)`,
      [SYSTEM_ACCOUNT_ID, email],
    );
    // Not the account's: its viewers and read keys would otherwise reset any member's password.
    expect((await t.db.query('SELECT 1 FROM messages WHERE user_id = $1', [account])).length).toBe(0);
    expect(mail.sender).toBe(t.config.teams.systemMailFrom);
    expect(mail.text).toContain(`${t.config.deliverability.publicUrl}/console/password-reset/${token}`);
    // Only the token's hash is kept, and the redeemed reset is gone.
    const stored: unknown[] = await t.db.query('SELECT 1 FROM password_resets WHERE member_id = $1', [id]);
    expect(stored).toEqual([]);
    await t.http.post('/session').set(client()).send({ email, password: PASSWORD }).expect(401);
    await t.http.post('/session').set(client()).send({ email, password: NEW_PASSWORD }).expect(200);
    const { body } = await t.http.get('/user/audit-log?action=member.password_reset').set(bearer(account)).expect(200);
    expect(body.entries).toEqual([
      expect.objectContaining({
        actor: { type: 'member', id, label: email },
        action: 'member.password_reset',
        target: { type: 'member', id },
      }),
    ]);
  });

  it('answers an unknown address as a member’s (202, same body), and mails no one', async () => {
    const { email } = await member();
    const nobody = `${newUserId('nobody')}@example.com`;
    const from = client();

    const known = await ask(email, from);
    const unknown = await ask(nobody, from);

    expect(unknown.status).toBe(202);
    expect({ body: unknown.text, type: unknown.headers['content-type'] }).toEqual({
      body: known.text,
      type: known.headers['content-type'],
    });
    const mails: unknown[] = await t.db.query('SELECT 1 FROM messages WHERE $1 = ANY(recipients)', [nobody]);
    expect(mails).toEqual([]);
  });

  it('mails no invited (not yet active) member', async () => {
    const account = newUserId();
    const email = `${newUserId('m')}@example.com`;
    await t.http.post('/user/members').set(bearer(account)).send({ email, role: 'viewer' }).expect(201);

    await ask(email);

    expect(await passwordResetToken(t, account, email)).toBeUndefined();
  });

  it('uses a link once: the second time is 404', async () => {
    const { account, email } = await member();
    await ask(email);
    const token = await tokenFor(account, email);

    await t.http.post(`/password-reset/${token}`).send({ password: NEW_PASSWORD }).expect(204);
    const again = await t.http.post(`/password-reset/${token}`).send({ password: 'yet another passphrase' });

    expect(again.status).toBe(404);
    expect(again.headers['content-type']).toMatch(/^application\/problem\+json/);
    await t.http.post('/session').set(client()).send({ email, password: NEW_PASSWORD }).expect(200);
  });

  it('refuses a link past its 30 minutes (404), and an earlier link once a newer one is mailed', async () => {
    const { account, email, id } = await member();
    await ask(email);
    const first = await tokenFor(account, email);
    await ask(email);
    const second = await tokenFor(account, email);

    await t.http.post(`/password-reset/${first}`).send({ password: NEW_PASSWORD }).expect(404);
    await t.db.query(
      `UPDATE password_resets SET expires_at = clock_timestamp() - interval '1 second' WHERE member_id = $1`,
      [id],
    );
    await t.http.post(`/password-reset/${second}`).send({ password: NEW_PASSWORD }).expect(404);
    await t.http.post('/session').set(client()).send({ email, password: PASSWORD }).expect(200);
  });

  it('sets a link to end 30 minutes after it is asked for', async () => {
    const { email, id } = await member();

    await ask(email);

    const [{ minutes }]: { minutes: number }[] = await t.db.query(
      `SELECT extract(epoch FROM expires_at - created_at) / 60 AS minutes FROM password_resets WHERE member_id = $1`,
      [id],
    );
    expect(Number(minutes)).toBe(30);
  });

  it('refuses a forged token (404), well-formed or not', async () => {
    const forged = 'A'.repeat(43);

    const wellFormed = await t.http.post(`/password-reset/${forged}`).send({ password: NEW_PASSWORD });
    const malformed = await t.http.post('/password-reset/not-a-token').send({ password: NEW_PASSWORD });

    expect(wellFormed.status).toBe(404);
    expect(malformed.status).toBe(404);
    expect(wellFormed.body.detail).toBe('That password reset (used, expired or never made) does not exist.');
  });

  it('takes a new password of 256 characters and refuses 257 and 11 (400), the link still usable', async () => {
    const { account, email } = await member();
    await ask(email);
    const token = await tokenFor(account, email);

    const tooLong = await t.http.post(`/password-reset/${token}`).send({ password: 'x'.repeat(257) });
    const tooShort = await t.http.post(`/password-reset/${token}`).send({ password: 'x'.repeat(11) });
    const longest = await t.http.post(`/password-reset/${token}`).send({ password: 'y'.repeat(256) });

    expect(tooLong.status).toBe(400);
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ field: 'password' })]);
    expect(tooShort.status).toBe(400);
    expect(longest.status).toBe(204);
    await t.http
      .post('/session')
      .set(client())
      .send({ email, password: 'y'.repeat(256) })
      .expect(200);
  });

  it('takes an address of 254 characters and refuses 255 (400)', async () => {
    const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;

    expect(longest).toHaveLength(254);
    await t.http.post('/password-reset').set(client()).send({ email: longest }).expect(202);
    const refused = await t.http
      .post('/password-reset')
      .set(client())
      .send({ email: `x${longest}` });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'email' })]);
  });

  it('ends every session of the member: their cookies get 401', async () => {
    const { account, email, cookie } = await member();
    const other = sessionCookieOf(await t.http.post('/session').set(client()).send({ email, password: PASSWORD }));
    await t.http.get('/session').set('Cookie', cookie).expect(200);
    await ask(email);
    const token = await tokenFor(account, email);

    await t.http.post(`/password-reset/${token}`).send({ password: NEW_PASSWORD }).expect(204);

    await t.http.get('/session').set('Cookie', cookie).expect(401);
    await t.http.get('/session').set('Cookie', other).expect(401);
    await t.http.delete('/session').set('Cookie', other).set(ownOrigin(t)).expect(401);
  });

  it('resets only the account whose link it is, for an address that is a member of two', async () => {
    const first = await member();
    const second = newUserId();
    await t.http.post('/user/members').set(bearer(second)).send({ email: first.email, role: 'viewer' }).expect(201);
    const invitation = await invitationToken(t, second, first.email);
    await t.http.post(`/invitations/${invitation}/accept`).send({ password: 'the second account’s pass' }).expect(200);

    await ask(first.email);
    const token = await tokenFor(second, first.email);
    await t.http.post(`/password-reset/${token}`).send({ password: NEW_PASSWORD }).expect(204);

    expect(await passwordResetToken(t, first.account, first.email)).toBeDefined();
    const signedIn = await t.http.post('/session').set(client()).send({ email: first.email, password: NEW_PASSWORD });
    expect(signedIn.body.account).toEqual({ userId: second });
    const old = await t.http.post('/session').set(client()).send({ email: first.email, password: PASSWORD });
    expect(old.body.account).toEqual({ userId: first.account });
  });

  const resetMails = async (email: string): Promise<number> =>
    (
      await t.db.query(
        `SELECT 1 FROM messages WHERE user_id = $1 AND $2 = ANY(recipients) AND subject = 'Reset your Mailroom password'`,
        [SYSTEM_ACCOUNT_ID, email],
      )
    ).length;

  it('mails 10 links for one address in 15 minutes, then answers the same 202 and mails nothing', async () => {
    const { email } = await member();

    for (let i = 0; i < 10; i++) expect((await ask(email)).status).toBe(202);
    const past = await ask(email);

    expect(past.status).toBe(202);
    expect(past.text).toBe('');
    expect(await resetMails(email)).toBe(10);
    // Sign-in has counters of its own: the requests cost the address no sign-in.
    await t.http.post('/session').set(client()).send({ email, password: PASSWORD }).expect(200);
  });

  it('counts a burst sent at once as it counts requests one by one: 10 mails of 30 at most', async () => {
    const { email } = await member();

    const answers = await Promise.all(
      Array.from({ length: 30 }, () => t.http.post('/password-reset').set(client()).send({ email })),
    );
    await t.app.get(PasswordResets).settled();

    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(202));
    expect(await resetMails(email)).toBe(10);
  });
});
