// Concurrent sends with one key (docs/api.md#sending): a repeat while the first is in flight gets 409, and of
// many racing sends exactly one goes through.
import type { Response } from 'supertest';
import { addressKey } from '../../../../src/platform/mail/addresses';
import { senderIdFor } from '../../../../src/messages/addresses';
import { rowsOwnedBy, sendBody } from '../../../support/factories';
import { newUserId } from '../../../support/tokens';
import { bootTwoApiProcesses } from '../../../support/idempotency/two-api-processes';

/** docs/api.md#sending: Idempotency-Key on POST /sender/send, on two API processes sharing one database. */
describe('Idempotency-Key on POST /sender/send', () => {
  const {
    t,
    other,
    send,
    newKey,
    deliveryJobsFor,
    deliveryJobsOfUser,
    messagesOf,
    keysOf,
    expectProblem,
    expectFirstAnswer,
    expectReplayOf,
  } = bootTwoApiProcesses();

  describe('a repeat while the first is in flight', () => {
    it('gets 409 on any process, and the first then completes and is replayed', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody();
      // Holds the first send inside its transaction: it waits on this uncommitted sender row.
      const blocker = t.db.createQueryRunner();
      await blocker.connect();
      let first: Promise<Response> | undefined;
      try {
        await blocker.startTransaction();
        const [{ pid }] = await blocker.query(`SELECT pg_backend_pid() AS pid`);
        await blocker.query(`INSERT INTO senders (id, user_id, email) VALUES ($1, $2, $3)`, [
          senderIdFor(userId, body.sender as string),
          userId,
          addressKey(body.sender as string),
        ]);
        first = send(userId, body, key).then((r) => r);
        await waitUntilBlockedBy(pid);

        const sameBody = await send(userId, body, key, other);
        const otherBody = await send(userId, sendBody({ subject: 'Different' }), key);

        expectProblem(sameBody, 409, 'Conflict');
        expectProblem(otherBody, 409, 'Conflict');
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }

      const firstAnswer = await first;
      expectFirstAnswer(firstAnswer);
      expectReplayOf(await send(userId, body, key, other), firstAnswer);
      expect(await messagesOf(userId)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
    });

    it('answers a repeat after the first has finished with the first answer, even while another repeat is being answered', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody();
      const first = await send(userId, body, key);
      expectFirstAnswer(first);
      // Holds one repeat inside its transaction, at its read of the stored answer (briefly: other
      // files' sends with a key wait on this lock too).
      const blocker = t.db.createQueryRunner();
      await blocker.connect();
      let heldRepeat: Promise<Response> | undefined;
      let secondRepeat: Promise<Response> | undefined;
      try {
        await blocker.startTransaction();
        const [{ pid }] = await blocker.query(`SELECT pg_backend_pid() AS pid`);
        await blocker.query(`LOCK TABLE idempotency_keys IN ACCESS EXCLUSIVE MODE`);
        heldRepeat = send(userId, body, key).then((r) => r);
        await waitUntilBlockedBy(pid);

        // Answered at once, or waiting on the table like the first repeat: either way, then let go.
        let settled = false;
        secondRepeat = send(userId, body, key, other).then((r) => ((settled = true), r));
        await waitUntilBlockedBy(pid, 2, () => settled);
      } finally {
        if (blocker.isTransactionActive) await blocker.rollbackTransaction();
        await blocker.release();
      }

      expectReplayOf(await heldRepeat, first);
      // The first request finished long ago: nothing is in flight that could justify a 409.
      expectReplayOf(await secondRepeat, first);
      expect(await messagesOf(userId)).toBe(1);
    });

    /** Waits until `backends` backends wait on a lock that `pid` holds (or `done`). */
    async function waitUntilBlockedBy(pid: number, backends = 1, done = () => false): Promise<void> {
      const deadline = Date.now() + 10_000;
      for (;;) {
        if (done()) return;
        const [{ blocked }] = await t.db.query(
          `SELECT count(*)::int AS blocked FROM pg_stat_activity WHERE $1 = ANY (pg_blocking_pids(pid))`,
          [pid],
        );
        if (blocked >= backends) return;
        if (Date.now() > deadline) throw new Error('The first send never reached the database');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    it('lets exactly one of 20 concurrent identical sends on two processes through: one message, one job', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody({ customPayload: { race: 'same body' } });

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(userId, body, key, i % 2 === 0 ? t : other)),
      );

      const created = answers.filter((r) => r.status === 201);
      const conflicts = answers.filter((r) => r.status !== 201);
      for (const conflict of conflicts) expectProblem(conflict, 409, 'Conflict');
      const originals = created.filter((r) => r.headers['idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      const [original] = originals;
      expectFirstAnswer(original);
      for (const replay of created.filter((r) => r !== original)) expectReplayOf(replay, original);

      expect(await messagesOf(userId)).toBe(1);
      expect(await deliveryJobsFor(original.body.id)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
      expect(await keysOf(userId)).toBe(1);
      expect(await rowsOwnedBy(t.db, userId)).toMatchObject({
        senders: 1,
        messages: 1,
        recipients: 1,
        events: 1,
        attachments: 0,
      });
      // Once the dust settles, every repeat is a replay.
      expectReplayOf(await send(userId, body, key, other), original);
    });

    it('lets exactly one of 20 concurrent sends with one key and different bodies through', async () => {
      const userId = newUserId();
      const key = newKey();

      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          send(userId, sendBody({ subject: `Race ${i}` }), key, i % 2 === 0 ? t : other),
        ),
      );

      const created = answers.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      const [winner] = created;
      expectFirstAnswer(winner);
      for (const refused of answers.filter((r) => r !== winner)) {
        expect([409, 422]).toContain(refused.status);
        expectProblem(refused, refused.status, refused.status === 409 ? 'Conflict' : 'Unprocessable Entity');
      }
      expect(await messagesOf(userId)).toBe(1);
      const [stored] = await t.db.query(`SELECT id, subject FROM messages WHERE user_id = $1`, [userId]);
      expect(stored).toEqual({ id: winner.body.id, subject: winner.body.subject });
      expect(await deliveryJobsOfUser(userId)).toBe(1);
    });
  });
});
