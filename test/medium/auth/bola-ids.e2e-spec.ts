// Broken object-level authorization (docs/api.md#authentication), by id: every endpoint that takes an id, given another
// user's real id, must answer exactly as it answers an id that exists nowhere, and must change
// nothing of that user's (the world: bola-world.ts).
import type { Test } from 'supertest';
import { rowsOwnedBy, sendBody } from '../../support/factories';
import { bearer } from '../../support/tokens';
import { aliceAndBob, nowhereLike, observe, TIMEOUT, VARIANTS } from '../../support/bola/bola-world';

describe("BOLA: another user's id is answered like an id that exists nowhere (docs/api.md#authentication)", () => {
  const { t, receiver, alice, bob, alicePath, ids, made, deliveries, aliceState } = aliceAndBob();

  it('has the data it probes: what Alice owns is found by Alice through the same endpoints', async () => {
    expect(made.aliceEvents.map((e) => e.type).sort()).toEqual(['message.queued', 'message.sending', 'message.sent']);
    await t.http.get(`/user/messages/${ids.message}`).set(bearer(alice)).expect(200);
    await t.http.get(`/user/messages/${ids.message.toUpperCase()}`).set(bearer(alice)).expect(200);
    for (const path of ['content', 'attachments/0', 'raw'])
      await t.http.get(`/user/messages/${ids.message}/${path}`).set(bearer(alice)).expect(200);
    expect((await deliveries(alice, { messageId: ids.message })).total).toBe(3);
    expect(
      Object.values(ids).every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)),
    ).toBe(true);
    expect(made.aliceBefore.mails).toEqual([1, 1]);
    expect(made.aliceBefore.webhookRequests).toBe(3);
    expect(await aliceState()).toEqual(made.aliceBefore);
  });

  // Each takes the caller and the id to try; `expected` is the status an id that exists nowhere gets.
  const probes: Array<[string, number, (userId: string, id: string) => Test]> = [
    ['GET /user/messages/{id}', 404, (userId, id) => t.http.get(`/user/messages/${id}`).set(bearer(userId))],
    [
      'GET /user/messages/{id}/content',
      404,
      (userId, id) => t.http.get(`/user/messages/${id}/content`).set(bearer(userId)),
    ],
    [
      'GET /user/messages/{id}/attachments/0',
      404,
      (userId, id) => t.http.get(`/user/messages/${id}/attachments/0`).set(bearer(userId)),
    ],
    ['GET /user/messages/{id}/raw', 404, (userId, id) => t.http.get(`/user/messages/${id}/raw`).set(bearer(userId))],
    [
      'POST /user/messages/{id}/cancel',
      404,
      (userId, id) => t.http.post(`/user/messages/${id}/cancel`).set(bearer(userId)),
    ],
    [
      'GET /user/webhook-deliveries?messageId=',
      200,
      (userId, id) => t.http.get('/user/webhook-deliveries').query({ messageId: id }).set(bearer(userId)),
    ],
    [
      'GET /user/webhook-deliveries?messageId=&take=100&page=1',
      200,
      (userId, id) =>
        t.http.get('/user/webhook-deliveries').query({ messageId: id, take: 100, page: 1 }).set(bearer(userId)),
    ],
    [
      'POST /user/webhook-deliveries/{id}/replay',
      404,
      (userId, id) => t.http.post(`/user/webhook-deliveries/${id}/replay`).set(bearer(userId)),
    ],
    ['GET /domains/{id}', 404, (userId, id) => t.http.get(`/domains/${id}`).set(bearer(userId))],
    ['POST /domains/{id}/verify', 404, (userId, id) => t.http.post(`/domains/${id}/verify`).set(bearer(userId))],
    ['DELETE /domains/{id}', 404, (userId, id) => t.http.delete(`/domains/${id}`).set(bearer(userId))],
    [
      'POST /sender/send with attachmentIds: [id]',
      400,
      (userId, id) =>
        t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ attachmentIds: [id] })),
    ],
    [
      'POST /sender/send with attachmentIds: [own, id]',
      400,
      (userId, id) =>
        t.http
          .post('/sender/send')
          .set(bearer(userId))
          .send(sendBody({ attachmentIds: [made.bobAttachment, id] })),
    ],
  ];
  const idKinds = [
    'message',
    'message without webhook',
    'attachment',
    'webhook event (message.sent)',
    'webhook event (message.queued)',
    'senderId',
    'domain',
  ];
  const cases = probes.flatMap(([endpoint, expected, call]) =>
    idKinds.flatMap((kind) =>
      Object.keys(VARIANTS).map((variant) => [endpoint, kind, variant, expected, call] as const),
    ),
  );

  it.each(cases)(
    "%s: Alice's %s id (%s) is answered to Bob exactly like an id that exists nowhere",
    async (_endpoint, kind, variant, expected, call) => {
      const theirs = VARIANTS[variant](ids[kind]);
      const nowhere = VARIANTS[variant](nowhereLike(ids[kind]));
      const bobsOwnBefore = await rowsOwnedBy(t.db, bob);

      const foreign = await call(bob, theirs);
      const unknown = await call(bob, nowhere);

      // A malformed id may well be refused differently; as issued, the status is the one we know.
      if (variant !== 'without hyphens') expect(unknown.status).toBe(expected);
      expect(observe(foreign, theirs)).toEqual(observe(unknown, nowhere));
      expect(foreign.headers['content-type']).toMatch(
        foreign.status === 200 ? /^application\/json/ : /^application\/problem\+json/,
      );
      expect(foreign.text).not.toContain(alice);
      expect(await rowsOwnedBy(t.db, bob)).toEqual(bobsOwnBefore);
      expect(await aliceState()).toEqual(made.aliceBefore);
    },
  );

  it(
    "Bob replaying each of Alice's webhook events sends nothing, queues nothing and logs no attempt for Alice",
    async () => {
      for (const event of made.aliceEvents) {
        await t.http.post(`/user/webhook-deliveries/${event.id}/replay`).set(bearer(bob)).expect(404);
        await t.http.post(`/user/webhook-deliveries/${event.id.toUpperCase()}/replay`).set(bearer(bob)).expect(404);
      }
      // A replay queues its job in the request's own transaction, before the answer: the state
      // (jobs included) read after the answers shows whether one was queued, without waiting.
      expect(await aliceState()).toEqual(made.aliceBefore);
      expect(receiver.on(alicePath)).toHaveLength(3);
      const after = await deliveries(alice);
      expect(after.deliveries.map((d: any) => [d.id, d.state, d.attempts.length])).toEqual(
        made.aliceEvents.map((e) => [e.id, 'delivered', 1]),
      );
    },
    TIMEOUT,
  );
});
