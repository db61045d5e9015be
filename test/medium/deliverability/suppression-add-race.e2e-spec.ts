// SuppressionsRepository.add against a DELETE of the same entry landing while it runs (a caller
// removing the address as a report or a second request adds it): the add answers with the entry
// it wrote or found, never an error, and the delete that came after it wins.
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { SuppressionsRepository } from '../../../src/deliverability/suppressions/suppressions.repository';
import { bootTestApp, TestApp } from '../../support/test-app';
import { newUserId } from '../../support/tokens';

describe('SuppressionsRepository.add with a concurrent delete', () => {
  let t: TestApp;
  let suppressions: SuppressionsRepository;
  beforeAll(async () => {
    t = await bootTestApp();
    suppressions = t.app.get(SuppressionsRepository);
  });
  afterAll(() => t.close());

  /**
   * The app's own manager, except that each statement it runs is followed, before its result comes
   * back, by a DELETE of the entry on another connection: the delete lands between the add's
   * statements, every time, deterministically.
   */
  const deletingAfterEachStatement = (userId: string, email: string): EntityManager =>
    new Proxy(t.db.manager, {
      get(manager, property) {
        if (property !== 'query') return Reflect.get(manager, property, manager) as unknown;
        return async (sql: string, parameters?: unknown[]) => {
          const rows: unknown = await manager.query(sql, parameters);
          await t.db.query(`DELETE FROM suppressions WHERE user_id = $1 AND email = $2`, [userId, email]);
          return rows;
        };
      },
    });

  it('answers with the entry that stood when an add left it unchanged and a delete came right after', async () => {
    const userId = newUserId('suppress-add-race');
    const email = `race-${randomUUID()}@example.com`;
    const wide = await suppressions.add({ userId, email, reason: 'hard_bounce', messageId: null });

    // An unsubscribe does not narrow a hard bounce: the entry stays as it was, then is deleted.
    const entry = await suppressions.add(
      { userId, email, reason: 'unsubscribe', messageId: null },
      deletingAfterEachStatement(userId, email),
    );

    expect(entry).toEqual(wide);
    expect(await t.db.query(`SELECT 1 FROM suppressions WHERE user_id = $1`, [userId])).toEqual([]);
  });

  it('answers with the entry it wrote when the delete came right after', async () => {
    const userId = newUserId('suppress-add-race-new');
    const email = `race-${randomUUID()}@example.com`;

    const entry = await suppressions.add(
      { userId, email, reason: 'manual', scope: 'bulk', messageId: null },
      deletingAfterEachStatement(userId, email),
    );

    expect(entry).toEqual({
      userId,
      email,
      reason: 'manual',
      scope: 'bulk',
      messageId: null,
      createdAt: expect.any(Date),
    });
  });
});
