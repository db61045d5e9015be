// A member removed while it signs in (docs/teams.md#members-and-roles: removing a member ends its
// sessions at once) gets no session and no 500: the removal is made to land exactly inside the
// sign-in, between its password check and its writes, by holding the lock the sign-in's next
// statement needs until the sign-in is seen waiting for it (pg_stat_activity), then removing the
// member and letting go. A database of its own: a table lock would stall other suites' sign-ins.
import { DataSource } from 'typeorm';
import { joinedMember, PASSWORD } from '../../support/members';
import { bootTestApp, createMigratedDatabase, dropDatabase, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';
import { waitForAsync } from '../../support/wait-for';

describe('a member removed while it signs in', () => {
  let databaseUrl: string;
  let t: TestApp;

  beforeAll(async () => {
    databaseUrl = await createMigratedDatabase(process.env.TEST_DATABASE_URL!);
    t = await bootTestApp({ DATABASE_URL: databaseUrl });
  });
  afterAll(async () => {
    await t?.close();
    if (databaseUrl) await dropDatabase(databaseUrl);
  });

  /** Whether a statement starting with `start` waits for a lock. */
  const waiting = (db: DataSource, start: string) => async () => {
    const [{ count }] = await db.query(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
      [`${start}%`],
    );
    return count > 0;
  };

  /**
   * Signs `email` in while a transaction holding `lock` waits for the sign-in to block on it, then
   * removes the member in that transaction and commits; returns the sign-in's answer.
   */
  async function signInRemovedAt(email: string, memberId: string, lock: string, blockedStatement: string) {
    const runner = t.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query(lock, lock.includes('$1') ? [memberId] : []);
      const signIn = t.http
        .post('/session')
        .send({ email, password: PASSWORD })
        .then((r) => r);
      await waitForAsync(waiting(t.db, blockedStatement), `the sign-in waiting at ${blockedStatement}`);
      await runner.query('DELETE FROM members WHERE id = $1', [memberId]);
      await runner.commitTransaction();
      return await signIn;
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  }

  it.each([
    // Removed before the sign-in is recorded: the audit log shows none.
    [
      'after its password is checked',
      'SELECT id FROM members WHERE id = $1 FOR UPDATE',
      'UPDATE members SET last_sign_in_at',
      0,
    ],
    // Removed once the sign-in is recorded, before its session is stored: the sign-in happened.
    ['as its session is stored', 'LOCK TABLE member_sessions IN SHARE MODE', 'WITH ended AS', 1],
  ])('answers 401, leaving no session, when removed %s', async (_when, lock, blockedStatement, signIns) => {
    const account = newUserId('team');
    const email = `${newUserId('m')}@example.com`;
    const { id, cookie } = await joinedMember(t, account, email, 'developer');
    await t.http.get('/session').set('Cookie', cookie).expect(200);

    const answer = await signInRemovedAt(email, id, lock, blockedStatement);

    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(answer.headers['set-cookie']).toBeUndefined();
    const [{ sessions }] = await t.db.query(
      'SELECT count(*)::int AS sessions FROM member_sessions WHERE member_id = $1',
      [id],
    );
    expect(sessions).toBe(0);
    await t.http.get('/session').set('Cookie', cookie).expect(401);
    const [{ recorded }] = await t.db.query(
      `SELECT count(*)::int AS recorded FROM audit_log_entries WHERE action = 'member.signed_in' AND target_id = $1`,
      [id],
    );
    expect(recorded).toBe(signIns);
  });
});
