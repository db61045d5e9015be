// Broken object-level authorization (docs/api.md#authentication), by id: every endpoint that takes an id, given another
// user's real id, must answer exactly as it answers an id that exists nowhere, and must change
// nothing of that user's (the world: bola-world.ts).
import type { Test } from 'supertest';
import { rowsOwnedBy, sendBody } from '../../support/factories';
import { bearer } from '../../support/tokens';
import { aliceAndBob, CREDENTIALS, nowhereLike, observe, TIMEOUT, VARIANTS } from '../../support/bola/bola-world';

describe("BOLA: another user's id is answered like an id that exists nowhere (docs/api.md#authentication)", () => {
  const { t, receiver, alice, bob, bobAs, alicePath, ids, made, deliveries, aliceState } = aliceAndBob();

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
    const team = await t.http.get('/user/members').set(bearer(alice)).expect(200);
    expect(team.body.members.map((m: { id: string; status: string }) => [m.id, m.status])).toEqual([
      [ids.member, 'active'],
      [ids['invited member'], 'invited'],
    ]);
    expect(made.aliceBefore.sessions).toBe(1);
    expect(made.aliceBefore.mails).toEqual([1, 1]);
    expect(made.aliceBefore.webhookRequests).toBe(3);
    expect(await aliceState()).toEqual(made.aliceBefore);
  });

  // Each takes the caller's headers and the id to try; `expected` is the status an id that exists nowhere gets.
  const probes: Array<[string, number, (auth: Record<string, string>, id: string) => Test]> = [
    ['GET /user/messages/{id}', 404, (auth, id) => t.http.get(`/user/messages/${id}`).set(auth)],
    ['GET /user/messages/{id}/content', 404, (auth, id) => t.http.get(`/user/messages/${id}/content`).set(auth)],
    [
      'GET /user/messages/{id}/attachments/0',
      404,
      (auth, id) => t.http.get(`/user/messages/${id}/attachments/0`).set(auth),
    ],
    ['GET /user/messages/{id}/raw', 404, (auth, id) => t.http.get(`/user/messages/${id}/raw`).set(auth)],
    ['POST /user/messages/{id}/cancel', 404, (auth, id) => t.http.post(`/user/messages/${id}/cancel`).set(auth)],
    [
      'GET /user/webhook-deliveries?messageId=',
      200,
      (auth, id) => t.http.get('/user/webhook-deliveries').query({ messageId: id }).set(auth),
    ],
    [
      'GET /user/webhook-deliveries?messageId=&take=100&page=1',
      200,
      (auth, id) => t.http.get('/user/webhook-deliveries').query({ messageId: id, take: 100, page: 1 }).set(auth),
    ],
    [
      'POST /user/webhook-deliveries/{id}/replay',
      404,
      (auth, id) => t.http.post(`/user/webhook-deliveries/${id}/replay`).set(auth),
    ],
    ['GET /domains/{id}', 404, (auth, id) => t.http.get(`/domains/${id}`).set(auth)],
    ['POST /domains/{id}/verify', 404, (auth, id) => t.http.post(`/domains/${id}/verify`).set(auth)],
    ['DELETE /domains/{id}', 404, (auth, id) => t.http.delete(`/domains/${id}`).set(auth)],
    [
      'POST /sender/send with attachmentIds: [id]',
      400,
      (auth, id) =>
        t.http
          .post('/sender/send')
          .set(auth)
          .send(sendBody({ attachmentIds: [id] })),
    ],
    [
      'POST /sender/send with attachmentIds: [own, id]',
      400,
      (auth, id) =>
        t.http
          .post('/sender/send')
          .set(auth)
          .send(sendBody({ attachmentIds: [made.bobAttachment, id] })),
    ],
    [
      'PATCH /user/members/{id}',
      404,
      (auth, id) => t.http.patch(`/user/members/${id}`).set(auth).send({ role: 'viewer' }),
    ],
    ['DELETE /user/members/{id}', 404, (auth, id) => t.http.delete(`/user/members/${id}`).set(auth)],
  ];
  const idKinds = [
    'message',
    'message without webhook',
    'attachment',
    'webhook event (message.sent)',
    'webhook event (message.queued)',
    'senderId',
    'domain',
    'member',
    'invited member',
  ];
  const cases = CREDENTIALS.flatMap((credential) =>
    probes.flatMap(([endpoint, expected, call]) =>
      idKinds.flatMap((kind) =>
        Object.keys(VARIANTS).map((variant) => [endpoint, kind, variant, credential, expected, call] as const),
      ),
    ),
  );

  it.each(cases)(
    "%s: Alice's %s id (%s) is answered to Bob (%s) exactly like an id that exists nowhere",
    async (_endpoint, kind, variant, credential, expected, call) => {
      const theirs = VARIANTS[variant](ids[kind]);
      const nowhere = VARIANTS[variant](nowhereLike(ids[kind]));
      const bobsOwnBefore = await rowsOwnedBy(t.db, bob);

      const foreign = await call(bobAs(credential), theirs);
      const unknown = await call(bobAs(credential), nowhere);

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
    "Bob replaying each of Alice's webhook events, with a JWT or a session, sends nothing, queues nothing and logs no attempt for Alice",
    async () => {
      for (const credential of CREDENTIALS) {
        for (const event of made.aliceEvents) {
          await t.http.post(`/user/webhook-deliveries/${event.id}/replay`).set(bobAs(credential)).expect(404);
          await t.http
            .post(`/user/webhook-deliveries/${event.id.toUpperCase()}/replay`)
            .set(bobAs(credential))
            .expect(404);
        }
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
