// POST /user/messages/{id}/cancel (docs/delivery-and-deliverability.md#statuses, docs/api.md#routes): scheduled, queued or deferred → canceled, and no
// delivery afterwards, even when a worker already holds the message's job; 409 from any other
// status, 404 for an id that is not the caller's.
import { randomUUID } from 'node:crypto';
import { DELIVERY_QUEUE } from '../../../src/platform/queue/delivery-queue';
import { bearer, newUserId } from '../../support/tokens';
import { waitFor, waitForStatus } from '../../support/wait-for';
import { distinctEvents } from '../../support/webhooks/signatures';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

const statuses = (message: { statusHistory: { status: string }[] }) => message.statusHistory.map((e) => e.status);
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const conflict = (id: string, status: string) => ({
  type: 'about:blank',
  title: 'Conflict',
  status: 409,
  detail: `Message ${id} is ${status}; only a message that is scheduled, queued or deferred can be canceled.`,
});

describe('canceling a message (ROLE=all, SMTP sink, webhook receiver)', () => {
  // Retries far off: a deferred message stays deferred while the test cancels it.
  const { receiver, sink, t, send } = bootWebhookApp({
    ...TO_LOOPBACK,
    DELIVERY_RETRY_DELAYS: '600',
    WORKER_CONCURRENCY: '1',
  });

  const cancel = (userId: string, id: string) => t.http.post(`/user/messages/${id}/cancel`).set(bearer(userId));
  /** A sender address of its own, so that the sink's MAIL FROM log tells whether this message was ever begun. */
  const ownSender = () => `sender-${randomUUID()}@example.com`;
  const jobsOf = async (messageId: string): Promise<string[]> =>
    (
      await t.db.query(`SELECT state FROM pgboss.job WHERE name = $1 AND data->>'messageId' = $2`, [
        DELIVERY_QUEUE,
        messageId,
      ])
    ).map((row: { state: string }) => row.state);
  const eventsOf = async (messageId: string): Promise<string[]> =>
    (await t.db.query(`SELECT status FROM webhook_events WHERE message_id = $1 ORDER BY sequence`, [messageId])).map(
      (row: { status: string }) => row.status,
    );
  /** The job was taken and completed: its claim ran, and (for a canceled message) refused it. */
  async function waitForJobCompleted(messageId: string): Promise<void> {
    for (const deadline = Date.now() + 20_000; (await jobsOf(messageId)).join() !== 'completed';) {
      if (Date.now() > deadline)
        throw new Error(`the job of ${messageId} never completed: ${(await jobsOf(messageId)).join(',')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it(
    'cancels a scheduled message: 200 with the Message, a history entry and a webhook; its job, when due, sends nothing',
    async () => {
      const userId = newUserId('cancel-scheduled');
      const path = newPath('cancel-scheduled');
      const sender = ownSender();
      // An hour ahead, so that no busy machine lets the job run before the cancel; it is made due below.
      const scheduledAt = inAnHour();
      const accepted = await send(userId, { sender, scheduledAt, webhook: { url: receiver.url(path), status: [] } });

      const { body } = await cancel(userId, accepted.id).expect(200);

      expect(body).toMatchObject({ id: accepted.id, status: 'canceled', scheduledAt });
      expect(statuses(body)).toEqual(['scheduled', 'canceled']);
      expect((await t.http.get(`/user/messages/${accepted.id}`).set(bearer(userId)).expect(200)).body).toEqual(body);
      await receiver.waitFor(() => distinctEvents(receiver.on(path)).length >= 2, 'two events');
      expect(
        distinctEvents(receiver.on(path)).map(({ event }) => [
          event.type,
          event.data.sequence,
          event.data.message.status,
        ]),
      ).toEqual([
        ['message.scheduled', 1, 'scheduled'],
        ['message.canceled', 2, 'canceled'],
      ]);

      // The queue hands the job over once due (now, rather than in an hour); the claim's guard refuses a canceled message.
      const [, madeDue] = await t.db.query(
        `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND data->>'messageId' = $2 AND state = 'created'`,
        [DELIVERY_QUEUE, accepted.id],
      );
      expect(madeDue).toBe(1);
      await waitForJobCompleted(accepted.id);
      expect(sink.mailFrom).not.toContain(sender);
      expect(statuses(await waitForStatus(t.http, userId, accepted.id, 'canceled'))).toEqual(['scheduled', 'canceled']);
      expect(await eventsOf(accepted.id)).toEqual(['scheduled', 'canceled']);
    },
    TIMEOUT,
  );

  it(
    'cancels a queued message whose job a worker has fetched but not claimed: nothing is delivered',
    async () => {
      const userId = newUserId('cancel-race');
      const sender = ownSender();
      // The worker's claim reads message_attachments, so it waits for this lock before it touches
      // any message row (PostgreSQL takes a statement's table locks first); the cancel does not read it.
      const holder = t.db.createQueryRunner();
      await holder.connect();
      try {
        await holder.startTransaction();
        await holder.query(`LOCK TABLE message_attachments IN ACCESS EXCLUSIVE MODE`);
        const accepted = await send(userId, {
          sender,
          webhook: { url: receiver.url(newPath('cancel-race')), status: [] },
        });
        const claimWaiting = async () =>
          (
            await t.db.query(
              `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'message_attachments'::regclass AND NOT granted`,
            )
          )[0].n > 0;
        for (const deadline = Date.now() + 20_000; !(await claimWaiting());) {
          if (Date.now() > deadline) throw new Error('no worker ever fetched the job');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        expect(await jobsOf(accepted.id)).toEqual(['active']);

        const { body } = await cancel(userId, accepted.id).expect(200);

        expect(statuses(body)).toEqual(['queued', 'canceled']);
        await holder.commitTransaction();
        await waitForJobCompleted(accepted.id);
        expect(sink.mailFrom).not.toContain(sender);
        expect(statuses(await waitForStatus(t.http, userId, accepted.id, 'canceled'))).toEqual(['queued', 'canceled']);
        expect(await eventsOf(accepted.id)).toEqual(['queued', 'canceled']);
      } finally {
        if (holder.isTransactionActive) await holder.rollbackTransaction();
        await holder.release();
      }
    },
    TIMEOUT,
  );

  it(
    'cancels a deferred message between its attempts',
    async () => {
      const userId = newUserId('cancel-deferred');
      sink.reply = () => ({ code: 421, message: '4.3.2 Try again later' });
      const accepted = await send(userId);
      await waitForStatus(t.http, userId, accepted.id, 'deferred');

      const { body } = await cancel(userId, accepted.id).expect(200);

      expect(body.status).toBe('canceled');
      expect(statuses(body)).toEqual(['queued', 'sending', 'deferred', 'canceled']);
    },
    TIMEOUT,
  );

  it(
    'cancels a partly delivered deferred message: the recipient the server took stays sent, the waiting one is canceled, none deferred',
    async () => {
      const userId = newUserId('cancel-partly');
      const [took, waits] = [`took-${randomUUID()}@example.com`, `waits-${randomUUID()}@example.com`];
      // Refused for now at every attempt: only the cancel can end its wait.
      sink.refuseWith.set(waits, { code: 451, message: '4.7.1 Greylisted, try again later' });
      try {
        const accepted = await send(userId, { to: [took, waits] });
        const deferred = await waitForStatus(t.http, userId, accepted.id, 'deferred');
        expect(deferred.recipients.map((r: { email: string; status: string }) => [r.email, r.status])).toEqual([
          [took, 'sent'],
          [waits, 'deferred'],
        ]);

        const { body } = await cancel(userId, accepted.id).expect(200);

        expect(body.status).toBe('canceled');
        expect(body.recipients).toEqual([
          expect.objectContaining({ email: took, status: 'sent', detail: deferred.recipients[0].detail }),
          expect.objectContaining({
            email: waits,
            status: 'canceled',
            detail: 'Canceled by its owner before it was delivered',
          }),
        ]);
        expect(statuses(body)).toEqual(['queued', 'sending', 'deferred', 'canceled']);
        expect((await t.http.get(`/user/messages/${accepted.id}`).set(bearer(userId)).expect(200)).body).toEqual(body);
        expect(sink.acceptedFor(accepted.id).flatMap((m) => m.to)).toEqual([took]);
      } finally {
        sink.refuseWith.delete(waits);
      }
    },
    TIMEOUT,
  );

  it(
    'refuses to cancel a message while it is being sent (409), and delivers it',
    async () => {
      const userId = newUserId('cancel-sending');
      let release: (() => void) | undefined;
      sink.reply = () => new Promise((resolve) => (release = () => resolve('accept')));
      const accepted = await send(userId);
      await waitFor(() => release !== undefined, 'the mail server to hold the message');

      const { body } = await cancel(userId, accepted.id).expect(409);

      expect(body).toMatchObject(conflict(accepted.id, 'sending'));
      release!();
      expect(statuses(await waitForStatus(t.http, userId, accepted.id, 'sent'))).toEqual(['queued', 'sending', 'sent']);
    },
    TIMEOUT,
  );

  it.each([
    ['sent', () => 'accept' as const],
    ['failed', () => ({ code: 550, message: '5.1.1 No such user here' })],
  ])(
    'refuses to cancel a %s message (409), and leaves it as it was',
    async (status, reply) => {
      const userId = newUserId(`cancel-${status}`);
      sink.reply = reply;
      const accepted = await send(userId);
      const before = await waitForStatus(t.http, userId, accepted.id, status);

      const response = await cancel(userId, accepted.id).expect(409);

      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject(conflict(accepted.id, status));
      expect((await t.http.get(`/user/messages/${accepted.id}`).set(bearer(userId)).expect(200)).body).toEqual(before);
    },
    TIMEOUT,
  );

  it('refuses to cancel a message twice (409)', async () => {
    const userId = newUserId('cancel-twice');
    const accepted = await send(userId, { scheduledAt: inAnHour() });
    await cancel(userId, accepted.id).expect(200);

    const { body } = await cancel(userId, accepted.id).expect(409);

    expect(body).toMatchObject(conflict(accepted.id, 'canceled'));
    expect(statuses((await t.http.get(`/user/messages/${accepted.id}`).set(bearer(userId)).expect(200)).body)).toEqual([
      'scheduled',
      'canceled',
    ]);
  });

  it("answers 404 for another user's message, as GET does, and leaves it alone", async () => {
    const owner = newUserId('owner');
    const other = newUserId('other');
    const accepted = await send(owner, { scheduledAt: inAnHour() });
    const get = await t.http.get(`/user/messages/${accepted.id}`).set(bearer(other)).expect(404);

    const { body } = await cancel(other, accepted.id).expect(404);

    expect(body).toMatchObject({ status: 404, detail: get.body.detail });
    expect((await t.http.get(`/user/messages/${accepted.id}`).set(bearer(owner)).expect(200)).body.status).toBe(
      'scheduled',
    );
  });

  it.each([
    ['an unknown id', randomUUID()],
    ['an id that is no UUID', 'not-a-message'],
  ])('answers 404 for %s', async (_, id) => {
    const userId = newUserId('cancel-unknown');
    const get = await t.http.get(`/user/messages/${id}`).set(bearer(userId)).expect(404);

    const { body } = await cancel(userId, id).expect(404);

    expect(body).toMatchObject({ status: 404, detail: get.body.detail });
  });
});
