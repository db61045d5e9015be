// The delivery log (docs/delivery-and-deliverability.md#webhooks): GET /user/webhook-deliveries and replays, each user's own only.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { header, verifiesRequest } from '../../support/webhooks/signatures';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { allIn, deliveriesOf, secretOf, waitForLog } from '../../support/webhooks/webhook-endpoints';

describe('webhook events (ROLE=all, private networks allowed)', () => {
  const { receiver, t, send, scriptFor } = bootWebhookApp(TO_LOOPBACK);

  describe('replay', () => {
    it(
      'POST /user/webhook-deliveries/{id}/replay answers 202 and sends the same event again',
      async () => {
        const userId = newUserId('replay');
        const path = newPath('replay');
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        expect(receiver.on(path)).toHaveLength(1);

        const response = await t.http
          .post(`/user/webhook-deliveries/${delivery.id}/replay`)
          .set(bearer(userId))
          .expect(202);
        expect(response.body).toEqual({ id: delivery.id, state: 'pending' });
        await receiver.waitFor(
          () => receiver.on(path).filter((r) => r.answered === 200).length >= 2,
          'the replayed event',
        );
        const [first, again] = receiver.on(path);
        expect(header(again, 'webhook-id')).toBe(delivery.id);
        expect(again.rawBody).toBe(first.rawBody);
        expect(verifiesRequest(await secretOf(t.http, userId), again)).toBe(true);
        const [after] = await waitForLog(
          t.http,
          userId,
          accepted.id,
          (d) => d[0]?.attempts.length === 2 && d[0].state === 'delivered',
          'two attempts',
        );
        expect(after.attempts.map((a: any) => a.statusCode)).toEqual([200, 200]);
      },
      TIMEOUT,
    );

    it(
      'adds nothing for a pending event, whose next attempt is already queued: no duplicate requests',
      async () => {
        const userId = newUserId('replay-pending');
        const path = newPath('replay-pending');
        scriptFor(path, (attempt) => ({ status: attempt === 1 ? 500 : 200 }));
        const accepted = await send(userId, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [pending] = await waitForLog(
          t.http,
          userId,
          accepted.id,
          (d) => d.length === 1 && d[0].attempts.length === 1,
          'the first attempt',
        );
        expect(pending.state).toBe('pending');

        for (let i = 0; i < 2; i++) {
          const response = await t.http
            .post(`/user/webhook-deliveries/${pending.id}/replay`)
            .set(bearer(userId))
            .expect(202);
          expect(response.body).toEqual({ id: pending.id, state: 'pending' });
        }
        const [delivered] = await waitForLog(t.http, userId, accepted.id, allIn('delivered', 1), 'a delivered event');
        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        expect(receiver.on(path).map((r) => r.answered)).toEqual([500, 200]);
        expect(delivered.attempts.map((a: any) => a.statusCode)).toEqual([500, 200]);
      },
      TIMEOUT,
    );

    it(
      "answers 404, alike, for another user's event, an unknown id and a malformed one, and sends nothing",
      async () => {
        const owner = newUserId('owner');
        const intruder = newUserId('intruder');
        const path = newPath('foreign');
        const accepted = await send(owner, { webhook: { url: receiver.url(path), status: ['sent'] } });
        const [delivery] = await waitForLog(t.http, owner, accepted.id, allIn('delivered', 1), 'a delivered event');

        const foreign = await t.http
          .post(`/user/webhook-deliveries/${delivery.id}/replay`)
          .set(bearer(intruder))
          .expect(404);
        const unknown = await t.http
          .post(`/user/webhook-deliveries/${randomUUID()}/replay`)
          .set(bearer(intruder))
          .expect(404);
        const malformed = await t.http
          .post('/user/webhook-deliveries/not-a-uuid/replay')
          .set(bearer(intruder))
          .expect(404);
        const ownersUnknown = await t.http
          .post(`/user/webhook-deliveries/${randomUUID()}/replay`)
          .set(bearer(owner))
          .expect(404);
        for (const response of [foreign, unknown, malformed, ownersUnknown]) {
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(Object.keys(response.body).sort()).toEqual(['detail', 'requestId', 'status', 'title', 'type']);
          expect({ ...response.body, requestId: '', detail: '' }).toEqual({
            ...unknown.body,
            requestId: '',
            detail: '',
          });
          expect(response.body.status).toBe(404);
          expect(response.body.detail).not.toContain(owner);
        }
        expect(foreign.body.detail).toBe(`Webhook delivery ${delivery.id} does not exist.`);

        await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
        expect(receiver.on(path)).toHaveLength(1);
        const [after] = (await deliveriesOf(t.http, owner, { messageId: accepted.id })).deliveries;
        expect(after).toMatchObject({ state: 'delivered', attempts: [{ statusCode: 200 }] });
        expect(after.attempts).toHaveLength(1);
      },
      TIMEOUT,
    );
  });

  describe('GET /user/webhook-deliveries', () => {
    it(
      "never lists another user's events, with or without messageId",
      async () => {
        const alice = newUserId('alice');
        const bob = newUserId('bob');
        const path = newPath('bola');
        const alices = await send(alice, { webhook: { url: receiver.url(path) } });
        const bobs = await send(bob, { webhook: { url: receiver.url(path), status: ['queued'] } });
        await waitForLog(t.http, alice, alices.id, allIn('delivered', 3), 'three delivered events');
        await waitForLog(t.http, bob, bobs.id, allIn('delivered', 1), 'one delivered event');

        const bobsAll = await deliveriesOf(t.http, bob);
        expect(bobsAll.total).toBe(1);
        expect(bobsAll.deliveries.map((d: any) => [d.messageId, d.type])).toEqual([[bobs.id, 'message.queued']]);
        const bobsViewOfAlice = await deliveriesOf(t.http, bob, { messageId: alices.id });
        expect(bobsViewOfAlice).toEqual({
          deliveries: [],
          take: 10,
          page: 1,
          skip: 0,
          total: 0,
          totalPages: 0,
          hasNext: false,
          messageId: alices.id,
        });

        const alicesAll = await deliveriesOf(t.http, alice);
        expect(alicesAll.total).toBe(3);
        expect(alicesAll.deliveries.map((d: any) => d.messageId)).toEqual([alices.id, alices.id, alices.id]);
        expect((await deliveriesOf(t.http, alice, { messageId: bobs.id })).total).toBe(0);
      },
      TIMEOUT,
    );

    it(
      'pages like the message list',
      async () => {
        const userId = newUserId('pages');
        const path = newPath('pages');
        const accepted = await send(userId, { webhook: { url: receiver.url(path) } });
        await waitForLog(t.http, userId, accepted.id, allIn('delivered', 3), 'three delivered events');
        const first = await deliveriesOf(t.http, userId, { take: 2, page: 1 });
        expect(first).toMatchObject({ take: 2, page: 1, skip: 0, total: 3, totalPages: 2, hasNext: true });
        expect(first.deliveries.map((d: any) => d.sequence)).toEqual([3, 2]);
        const second = await deliveriesOf(t.http, userId, { take: 2, page: 2, messageId: accepted.id });
        expect(second).toMatchObject({
          take: 2,
          page: 2,
          skip: 2,
          total: 3,
          totalPages: 2,
          hasNext: false,
          messageId: accepted.id,
        });
        expect(second.deliveries.map((d: any) => d.sequence)).toEqual([1]);
        const past = await deliveriesOf(t.http, userId, { take: 2, page: 3 });
        expect(past).toMatchObject({ deliveries: [], page: 3, skip: 4, total: 3, hasNext: false });
      },
      TIMEOUT,
    );

    it.each([
      ['messageId', 'not-a-uuid'],
      ['messageId', '123'],
      ['take', '0'],
      ['take', '101'],
      ['take', '1.5'],
      ['take', 'ten'],
      ['take', '-1'],
      ['take', ''],
      ['page', '0'],
      ['page', 'x'],
      ['page', '1e3'],
    ])('refuses %s=%s with 400 naming it', async (name, value) => {
      const response = await t.http
        .get(`/user/webhook-deliveries?${name}=${encodeURIComponent(value)}`)
        .set(bearer(newUserId()))
        .expect(400);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([name]);
    });

    it('refuses an unknown parameter, and every webhook endpoint wants a token', async () => {
      const unknown = await t.http.get('/user/webhook-deliveries?limit=5').set(bearer(newUserId())).expect(400);
      expect(unknown.body.errors).toEqual([{ field: 'limit', message: 'is not a field of this request' }]);
      for (const call of [
        t.http.get('/user/webhook-secret'),
        t.http.get('/user/webhook-deliveries'),
        t.http.post(`/user/webhook-deliveries/${randomUUID()}/replay`),
      ]) {
        const response = await call.expect(401);
        expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
      }
    });
  });
});
