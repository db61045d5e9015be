// SuppressionsRepository.addMany (the delivery recorder's hard bounces of a batch, in one statement)
// on PostgreSQL: add's never-narrow rule holds for every entry, and an address named twice is put
// once, as the entry that stops more mail.
import { randomUUID } from 'node:crypto';
import { SuppressionsRepository } from '../../../src/deliverability/suppressions/suppressions.repository';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

describe('SuppressionsRepository.addMany', () => {
  let t: TestApp;
  let suppressions: SuppressionsRepository;
  beforeAll(async () => {
    t = await bootTestApp();
    suppressions = t.app.get(SuppressionsRepository);
  });
  afterAll(() => t.close());

  const address = (label: string) => `${label}-${randomUUID()}@example.com`;
  const listOf = async (userId: string) =>
    (await t.db.query(`SELECT email, reason, scope FROM suppressions WHERE user_id = $1 ORDER BY email`, [userId])).map(
      (r: { email: string; reason: string; scope: string }) => [r.email, r.reason, r.scope],
    );

  it('adds several entries in one statement, never narrowing one there, an address twice put once and widest', async () => {
    const userId = newUserId('suppress-add-many');
    const [kept, twice, fresh] = [address('a-kept'), address('b-twice'), address('c-fresh')];
    await suppressions.add({ userId, email: kept, reason: 'hard_bounce', messageId: null });

    const added = await suppressions.addMany([
      { userId, email: kept, reason: 'unsubscribe', messageId: null },
      { userId, email: twice, reason: 'unsubscribe', messageId: null },
      { userId, email: twice, reason: 'hard_bounce', messageId: null },
      { userId, email: fresh, reason: 'hard_bounce', messageId: null },
    ]);

    expect(added.map((e) => e.email).sort()).toEqual([kept, twice, fresh]);
    expect(await listOf(userId)).toEqual([
      [kept, 'hard_bounce', 'all'],
      [twice, 'hard_bounce', 'all'],
      [fresh, 'hard_bounce', 'all'],
    ]);
    expect(await suppressions.addMany([])).toEqual([]);
  });
});
