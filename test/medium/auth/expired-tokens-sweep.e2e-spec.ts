// The periodic sweep (docs/teams.md#what-is-forgotten): ended sessions, the tokens of expired
// invitations and expired password resets are forgotten; what can still be used stays. Other
// suites share the database, so the test reads its own rows, not the counts.
import { ExpiredTokensSweep } from '../../../src/auth/expired-tokens-sweep';
import { PasswordResets } from '../../../src/auth/password-reset/password-resets';
import { joinedMember } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('the expired tokens sweep', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });

  afterAll(() => t.close());

  const member = async () => {
    const account = newUserId();
    const email = `${newUserId('m')}@example.com`;
    return { account, email, ...(await joinedMember(t, account, email, 'developer')) };
  };
  const sessionsOf = async (memberId: string) =>
    (await t.db.query('SELECT 1 FROM member_sessions WHERE member_id = $1', [memberId])).length as number;

  it('forgets sessions unused too long or alive too long, and keeps live ones', async () => {
    const idle = await member();
    const old = await member();
    const live = await member();
    await t.db.query(
      `UPDATE member_sessions SET last_used_at = clock_timestamp() - interval '721 minutes' WHERE member_id = $1`,
      [idle.id],
    );
    await t.db.query(
      `UPDATE member_sessions SET created_at = clock_timestamp() - interval '169 hours' WHERE member_id = $1`,
      [old.id],
    );

    await t.app.get(ExpiredTokensSweep).sweep();

    expect(await sessionsOf(idle.id)).toBe(0);
    expect(await sessionsOf(old.id)).toBe(0);
    expect(await sessionsOf(live.id)).toBe(1);
    await t.http.get('/session').set('Cookie', live.cookie).expect(200);
  });

  it('forgets the token of an expired invitation, keeping the invited member listed; a pending one stays', async () => {
    const account = newUserId();
    const expired = await t.http
      .post('/user/members')
      .set(bearer(account))
      .send({ email: `${newUserId('e')}@example.com`, role: 'viewer' })
      .expect(201);
    const pending = await t.http
      .post('/user/members')
      .set(bearer(account))
      .send({ email: `${newUserId('p')}@example.com`, role: 'viewer' })
      .expect(201);
    await t.db.query(
      `UPDATE members SET invitation_expires_at = clock_timestamp() - interval '1 second' WHERE id = $1`,
      [expired.body.id],
    );

    await t.app.get(ExpiredTokensSweep).sweep();

    const rows: { id: string; hashed: boolean }[] = await t.db.query(
      `SELECT id, invitation_hash IS NOT NULL AS hashed FROM members WHERE account_id = $1 ORDER BY id`,
      [account],
    );
    expect(rows).toEqual(
      [
        { id: expired.body.id, hashed: false },
        { id: pending.body.id, hashed: true },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    const { body } = await t.http.get('/user/members').set(bearer(account)).expect(200);
    expect(body.members.map((m: { id: string }) => m.id)).toContain(expired.body.id);
  });

  it('forgets expired password resets and keeps pending ones', async () => {
    const expired = await member();
    const pending = await member();
    await t.http.post('/password-reset').send({ email: expired.email }).expect(202);
    await t.http.post('/password-reset').send({ email: pending.email }).expect(202);
    await t.app.get(PasswordResets).settled();
    await t.db.query(
      `UPDATE password_resets SET expires_at = clock_timestamp() - interval '1 second' WHERE member_id = $1`,
      [expired.id],
    );

    await t.app.get(ExpiredTokensSweep).sweep();

    const left: { member_id: string }[] = await t.db.query(
      'SELECT member_id FROM password_resets WHERE member_id = ANY($1)',
      [[expired.id, pending.id]],
    );
    expect(left).toEqual([{ member_id: pending.id }]);
  });
});
