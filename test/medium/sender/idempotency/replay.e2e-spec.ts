// A repeat of a finished send (docs/api.md#sending): the same body is answered with the first answer, another
// body is refused.
import { rowsOwnedBy, sendBody } from '../../../support/factories';
import { bearer, newUserId } from '../../../support/tokens';
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
    webhookEventsOf,
    acceptedCount,
    expectProblem,
    expectFirstAnswer,
    expectReplayOf,
  } = bootTwoApiProcesses();

  describe('a repeat with the same body', () => {
    it('gets the first answer, marked Idempotent-Replayed, and nothing is stored, queued or announced again', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody({ webhook: { url: 'https://hooks.example.com/mailroom' }, customPayload: { order: '42' } });

      const first = await send(userId, body, key);
      expectFirstAnswer(first);
      expect(first.body).toMatchObject({ status: 'queued', userId, customPayload: { order: '42' } });
      const rowsAfterFirst = await rowsOwnedBy(t.db, userId);
      expect(rowsAfterFirst).toMatchObject({ senders: 1, messages: 1, recipients: 1, events: 1, attachments: 0 });
      expect(await deliveryJobsFor(first.body.id)).toBe(1);
      const webhookEvents = await webhookEventsOf(userId);
      expect(webhookEvents).toBe(1);
      const acceptedBefore = await acceptedCount(t);

      const again = await send(userId, body, key);
      const onOtherProcess = await send(userId, body, key, other);

      expectReplayOf(again, first);
      expectReplayOf(onOtherProcess, first);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(rowsAfterFirst);
      expect(await deliveryJobsFor(first.body.id)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
      expect(await webhookEventsOf(userId)).toBe(webhookEvents);
      expect(await keysOf(userId)).toBe(1);
      expect(await acceptedCount(t)).toBe(acceptedBefore);
    });

    it('replays the first answer byte for byte even after the message has moved on', async () => {
      const userId = newUserId();
      const key = newKey();
      const body = sendBody({
        subject: 'Grüße — ✉️',
        to: ['Zoe@example.com', 'ada@example.com'],
        customPayload: { zeta: 'last', alpha: 'first', ключ: 'значение', mid: 'a "quoted" \\ value' },
        bulkSendingId: 'spring',
        priority: 'high',
      });
      const first = await send(userId, body, key);
      expectFirstAnswer(first);

      await t.db.query(`UPDATE messages SET status = 'sent', subject = 'changed since' WHERE id = $1`, [first.body.id]);
      const now = await t.http.get(`/user/messages/${first.body.id}`).set(bearer(userId)).expect(200);
      expect(now.body).toMatchObject({ status: 'sent', subject: 'changed since' });

      const again = await send(userId, body, key);

      expectReplayOf(again, first);
      expect(again.body).toMatchObject({ status: 'queued', subject: 'Grüße — ✉️' });
    });

    it('is recognised whatever the order of the keys in the JSON body', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/json')
        .send(
          '{"subject":"Hi","html":"<p>x</p>","to":["a@example.com"],"sender":"s@example.com","customPayload":{"a":"1","b":"2"}}',
        );
      expectFirstAnswer(first);

      const reordered = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/json')
        .send(
          '{ "customPayload": {"b":"2", "a":"1"}, "sender": "s@example.com", "to": ["a@example.com"], "html": "<p>x</p>", "subject": "Hi" }',
        );

      expectReplayOf(reordered, first);
      expect(await messagesOf(userId)).toBe(1);
    });

    it('sends a new message when no key is given', async () => {
      const userId = newUserId();
      const first = await send(userId, sendBody());
      const second = await send(userId, sendBody());

      expectFirstAnswer(first);
      expectFirstAnswer(second);
      expect(second.body.id).not.toBe(first.body.id);
      expect(await messagesOf(userId)).toBe(2);
      expect(await keysOf(userId)).toBe(0);
    });
  });

  describe('a repeat with another body', () => {
    it('gets 422 and changes nothing: the key still replays its first answer', async () => {
      const userId = newUserId();
      const key = newKey();
      const first = await send(userId, sendBody(), key);
      expectFirstAnswer(first);

      for (const changed of [
        sendBody({ subject: 'Another subject' }),
        sendBody({ to: ['ada@example.com', 'grace@example.com'] }),
        sendBody({ priority: 'high' }),
        sendBody({ customPayload: { a: 'b' } }),
      ]) {
        expectProblem(await send(userId, changed, key), 422, 'Unprocessable Entity');
        expectProblem(await send(userId, changed, key, other), 422, 'Unprocessable Entity');
      }

      expect(await messagesOf(userId)).toBe(1);
      expect(await deliveryJobsOfUser(userId)).toBe(1);
      expectReplayOf(await send(userId, sendBody(), key), first);
    });
  });
});
