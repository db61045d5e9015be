// The scope and lifetime of a key (docs/api.md#sending): per user, case-sensitive, 24 hours.
import { ExpiredKeysJanitor } from '../../../../src/sender/idempotency/expired-keys.janitor';
import { sendBody } from '../../../support/factories';
import { newUserId } from '../../../support/tokens';
import { bootTwoApiProcesses } from '../../../support/idempotency/two-api-processes';

/** docs/api.md#sending: Idempotency-Key on POST /sender/send, on two API processes sharing one database. */
describe('Idempotency-Key on POST /sender/send', () => {
  const { t, send, newKey, deliveryJobsOfUser, messagesOf, keysOf, expectProblem, expectFirstAnswer, expectReplayOf } =
    bootTwoApiProcesses();

  describe('scope and lifetime', () => {
    it('keeps keys per user: another user may use the same key, with the same body or another', async () => {
      const alice = newUserId('alice');
      const bob = newUserId('bob');
      const key = newKey();
      const aliceFirst = await send(alice, sendBody(), key);
      expectFirstAnswer(aliceFirst);

      const bobSame = await send(bob, sendBody(), key);
      expectFirstAnswer(bobSame);
      expect(bobSame.body.id).not.toBe(aliceFirst.body.id);
      expect(bobSame.body.userId).toBe(bob);
      const carol = newUserId('carol');
      const carolOther = await send(carol, sendBody({ subject: 'Carol writes' }), key);
      expectFirstAnswer(carolOther);

      expectReplayOf(await send(bob, sendBody(), key), bobSame);
      expectReplayOf(await send(alice, sendBody(), key), aliceFirst);
      expect(await messagesOf(alice)).toBe(1);
      expect(await messagesOf(bob)).toBe(1);
      expect(await messagesOf(carol)).toBe(1);
    });

    it('treats distinct keys as distinct, letter case included', async () => {
      const userId = newUserId();
      const key = newKey();
      const lower = await send(userId, sendBody(), `${key}-abc`);
      const upper = await send(userId, sendBody(), `${key}-ABC`);

      expectFirstAnswer(lower);
      expectFirstAnswer(upper);
      expect(upper.body.id).not.toBe(lower.body.id);
      expect(await messagesOf(userId)).toBe(2);
    });

    it('still replays a key used 23 hours ago', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await send(userId, sendBody(), key);
      await ageKey(userId, key, '23 hours');

      expectReplayOf(await send(userId, sendBody(), key), first);
      expectProblem(await send(userId, sendBody({ subject: 'Other' }), key), 422, 'Unprocessable Entity');
      expect(await messagesOf(userId)).toBe(1);
    });

    it('treats a key used more than 24 hours ago as new, with the same body or another', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await send(userId, sendBody(), key);
      await ageKey(userId, key, '25 hours');

      const sameBody = await send(userId, sendBody(), key);
      expectFirstAnswer(sameBody);
      expect(sameBody.body.id).not.toBe(first.body.id);
      expectReplayOf(await send(userId, sendBody(), key), sameBody);

      await ageKey(userId, key, '25 hours');
      const otherBody = await send(userId, sendBody({ subject: 'A day later' }), key);
      expectFirstAnswer(otherBody);
      expectReplayOf(await send(userId, sendBody({ subject: 'A day later' }), key), otherBody);

      expect(await messagesOf(userId)).toBe(3);
      expect(await deliveryJobsOfUser(userId)).toBe(3);
      expect(await keysOf(userId)).toBe(1);
    });

    it('loses keys past 24 hours to the janitor, and keeps younger ones', async () => {
      const userId = newUserId();
      const [old, young] = [newKey(), newKey()];
      await send(userId, sendBody(), old);
      await send(userId, sendBody({ subject: 'Younger' }), young);
      await ageKey(userId, old, '25 hours');
      await ageKey(userId, young, '23 hours');

      const deleted = await t.app.get(ExpiredKeysJanitor).sweep();

      expect(deleted).toBeGreaterThanOrEqual(1);
      const kept: { key: string }[] = await t.db.query(`SELECT key FROM idempotency_keys WHERE user_id = $1`, [userId]);
      expect(kept.map((row) => row.key)).toEqual([young]);
    });

    async function ageKey(userId: string, key: string, age: string): Promise<void> {
      const [, updated] = await t.db.query(
        `UPDATE idempotency_keys SET created_at = now() - $3::interval WHERE user_id = $1 AND key = $2`,
        [userId, key, age],
      );
      expect(updated).toBe(1);
    }
  });
});
