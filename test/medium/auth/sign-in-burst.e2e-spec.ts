// The failed sign-in throttle (docs/teams.md#signing-in) against a burst: guesses sent all at once,
// each checked before any of the others has failed, must still get no more than the 10 tries per
// address (and 50 per client) a guesser sending them one by one gets.
import { randomInt } from 'node:crypto';
import { joinedMember, PASSWORD } from '../../support/members';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

describe('failed sign-ins sent all at once', () => {
  let t: TestApp;
  /** A client no other test is, nor any earlier run's (TRUST_PROXY names the loopback a proxy). */
  const client = () => ({ 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });

  beforeAll(async () => {
    t = await bootTestApp({ TRUST_PROXY: '127.0.0.1,::1' });
  });
  afterAll(() => t?.close());

  it('checks no more than 10 passwords of one address, then 429 with Retry-After', async () => {
    const email = `${newUserId('burst')}@example.com`;
    await joinedMember(t, newUserId('team'), email, 'viewer');
    const from = client();

    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.http
          .post('/session')
          .set(from)
          .send({ email, password: `wrong password ${i}` }),
      ),
    );

    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
    for (const refused of answers.filter((r) => r.status === 429))
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await t.http.post('/session').set(from).send({ email, password: PASSWORD }).expect(429);
  });

  it('checks no more than 50 passwords from one client, whatever the addresses', async () => {
    const from = client();

    const answers = await Promise.all(
      Array.from({ length: 70 }, (_, i) =>
        t.http
          .post('/session')
          .set(from)
          .send({ email: `${newUserId(`nobody${i}`)}@example.com`, password: 'wrong password' }),
      ),
    );

    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(50);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  });
});
