// Broken object-level authorization (docs/api.md#authentication), in what is not asked for by id: lists, stats and
// Idempotency-Key show each user only what is theirs (the world: bola-world.ts).
import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { aliceAndBob, CREDENTIALS, observe, SHARED, signedInMember } from '../../support/bola/bola-world';

describe('BOLA: lists and stored answers show each user only their own (docs/api.md#authentication)', () => {
  const { t, alice, bob, bobAs, alicePath, aliceKeys, plainBody, ids, made, aliceState } = aliceAndBob();

  describe.each(CREDENTIALS)('lists, Bob with %s', (credential) => {
    const today = new Date().toISOString().slice(0, 10);
    const filters: Array<Record<string, string | number | boolean>> = [
      {},
      { take: 100 },
      { includeStatusHistory: true },
      { fromEmail: SHARED.sender },
      { fromEmail: SHARED.sender.toUpperCase() },
      { toEmail: SHARED.to[0] },
      { toEmail: SHARED.to[0].toUpperCase() },
      { bulkSending: SHARED.bulkSendingId },
      { statuses: 'sent' },
      { statuses: 'queued,sending,sent,deferred,failed' },
      { startDate: today, endDate: today },
      { startDate: '2000-01-01T00:00:00Z', endDate: '2999-12-31T23:59:59+14:00' },
      {
        take: 100,
        page: 1,
        includeStatusHistory: true,
        fromEmail: SHARED.sender,
        toEmail: SHARED.to[0],
        bulkSending: SHARED.bulkSendingId,
        statuses: 'sent',
        startDate: today,
        endDate: today,
      },
    ];

    it.each(filters.map((f) => [JSON.stringify(f), f]))(
      "GET /user/messages?%s shows Bob his message and none of Alice's",
      async (_name, filter) => {
        const bobs = await t.http.get('/user/messages').query(filter).set(bobAs(credential)).expect(200);
        const alices = await t.http.get('/user/messages').query(filter).set(bearer(alice)).expect(200);

        expect(bobs.body.messages.map((m: any) => [m.id, m.userId])).toEqual([[made.bobMessage.id, bob]]);
        expect(bobs.body.total).toBe(1);
        for (const id of Object.values(ids)) expect(bobs.text).not.toContain(id);
        expect(bobs.text).not.toContain(alice);
        // The same filter finds Alice's messages for Alice: Bob's answer is empty of them because they are hers.
        expect(alices.body.messages.every((m: any) => m.userId === alice)).toBe(true);
        expect(alices.body.messages.map((m: any) => m.id)).toContain(ids.message);
      },
    );

    it.each([{}, { startDate: today, endDate: today }])(
      "GET /user/stats?%j counts Bob's message and none of Alice's",
      async (query) => {
        const bobs = await t.http.get('/user/stats').query(query).set(bobAs(credential)).expect(200);
        const alices = await t.http.get('/user/stats').query(query).set(bearer(alice)).expect(200);

        expect(bobs.body.totals).toMatchObject({ accepted: 1, byStatus: { sent: 1 } });
        expect(alices.body.totals).toMatchObject({ accepted: 2, byStatus: { sent: 2 } });
      },
    );

    it("GET /domains shows Bob none of Alice's domains", async () => {
      const response = await t.http.get('/domains').set(bobAs(credential)).expect(200);

      expect(response.body).toEqual({ domains: [] });
      expect((await t.http.get('/domains').set(bearer(alice)).expect(200)).body.domains.map((d: any) => d.id)).toEqual([
        ids.domain,
      ]);
    });

    it("pages past Bob's own messages into nothing, not into Alice's", async () => {
      const page2 = await t.http.get('/user/messages').query({ take: 1, page: 2 }).set(bobAs(credential)).expect(200);

      expect(page2.body).toMatchObject({ messages: [], total: 1, page: 2, hasNext: false });
    });

    it('gives Bob a senderId of his own for the address Alice also sends from', () => {
      expect(made.bobMessage.sender).toBe(made.aliceMessages[0].sender);
      expect(made.bobMessage.senderId).not.toBe(made.aliceMessages[0].senderId);
    });

    it.each<[{ take?: number; page?: number }]>([
      [{}],
      [{ take: 100 }],
      [{ take: 1, page: 1 }],
      [{ take: 1, page: 2 }],
    ])("GET /user/webhook-deliveries?%j lists Bob's events and none of Alice's", async (query) => {
      const response = await t.http.get('/user/webhook-deliveries').query(query).set(bobAs(credential)).expect(200);

      expect(response.body.total).toBe(1);
      expect(response.body.deliveries.map((d: any) => d.id)).toEqual(query.page === 2 ? [] : [made.bobEvent.id]);
      for (const id of [...Object.values(ids), ...made.aliceEvents.map((e) => e.id)])
        expect(response.text).not.toContain(id);
      expect(response.text).not.toContain(alicePath);
    });

    it("GET /user/members shows Bob his team and none of Alice's", async () => {
      const bobs = await t.http.get('/user/members').set(bobAs(credential)).expect(200);
      const alices = await t.http.get('/user/members').set(bearer(alice)).expect(200);

      expect(bobs.body.members).toHaveLength(1);
      for (const member of alices.body.members) {
        expect(bobs.text).not.toContain(member.id);
        expect(bobs.text).not.toContain(member.email);
      }
      expect(alices.body.members.map((m: any) => m.id)).toEqual([ids.member, ids['invited member']]);
    });

    it("GET /user/audit-log shows Bob none of Alice's entries", async () => {
      const bobs = await t.http.get('/user/audit-log').query({ take: 100 }).set(bobAs(credential)).expect(200);
      const alices = await t.http.get('/user/audit-log').query({ take: 100 }).set(bearer(alice)).expect(200);

      expect(alices.body.entries.map((e: any) => e.action)).toEqual(
        expect.arrayContaining(['domain.created', 'member.joined']),
      );
      for (const entry of alices.body.entries) expect(bobs.text).not.toContain(entry.id);
      for (const id of Object.values(ids)) expect(bobs.text).not.toContain(id);
      expect(bobs.text).not.toContain(alice);
      // Alice's actor and action filters find nothing of hers for Bob either.
      for (const query of [{ actor: alice }, { actor: ids.member }, { action: 'domain.created' }]) {
        const filtered = await t.http.get('/user/audit-log').query(query).set(bobAs(credential)).expect(200);
        expect(filtered.body.entries).toEqual([]);
      }
    });
  });

  describe('Idempotency-Key, which names a stored answer per user', () => {
    const send = (userId: string, key: string, body: Record<string, unknown>) =>
      t.http.post('/sender/send').set(bearer(userId)).set('Idempotency-Key', key).send(body);

    /** A fresh send as its caller observes it, without what differs between any two sends and users. */
    const observeSend = (response: Response, userId: string) => {
      const { id, sentAt, senderId, userId: owner, recipients, ...rest } = response.body;
      expect(owner).toBe(userId);
      expect(Date.parse(sentAt)).not.toBeNaN();
      expect(senderId).toMatch(/^[0-9a-f-]{36}$/);
      // Each recipient's fate dates from the acceptance, as sentAt does: the two sends' moments differ.
      const fates = (recipients as { at: string }[]).map(({ at, ...fate }) => {
        expect(at).toBe(sentAt);
        return fate;
      });
      return { ...observe(response, id), body: { ...rest, recipients: fates } };
    };

    it("Alice's key with Alice's body gives Carol a new message of her own, not Alice's answer", async () => {
      // Ids of the same length, so that the two answers have the same length too.
      const carol = newUserId('carol');
      const cindy = newUserId('cindy');

      const reused = await send(carol, aliceKeys.plain, plainBody).expect(201);
      const fresh = await send(cindy, `alice-key-${randomUUID()}`, plainBody).expect(201);

      expect(reused.headers['idempotent-replayed']).toBeUndefined();
      expect(reused.body.id).not.toBe(made.aliceMessages[1].id);
      expect(observeSend(reused, carol)).toEqual(observeSend(fresh, cindy));
      expect(await aliceState()).toEqual(made.aliceBefore);

      // Alice's key still answers Alice with her own first answer.
      const replayed = await send(alice, aliceKeys.plain, plainBody).expect(201);
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.body.id).toBe(made.aliceMessages[1].id);
    });

    it("Alice's keys, sent with the session of an owner of Carol's team, give Carol messages of her own", async () => {
      const carol = newUserId('carol');
      const { headers } = await signedInMember(t, carol, 'owner');
      const sendAsCarol = (key: string, body: Record<string, unknown>) =>
        t.http.post('/sender/send').set(headers).set('Idempotency-Key', key).send(body);

      const same = await sendAsCarol(aliceKeys.plain, plainBody).expect(201);
      const other = await sendAsCarol(aliceKeys.withWebhook, sendBody({ subject: 'Something else' })).expect(201);

      for (const reused of [same, other]) {
        expect(reused.headers['idempotent-replayed']).toBeUndefined();
        expect(reused.body.userId).toBe(carol);
        expect(made.aliceMessages.map((m) => m.id)).not.toContain(reused.body.id);
      }
      expect(await aliceState()).toEqual(made.aliceBefore);
    });

    it("Alice's key with another body gives Carol 201, not the 422 Alice would get", async () => {
      const carol = newUserId('carol');
      const other = sendBody({ subject: 'Something else' });

      const reused = await send(carol, aliceKeys.withWebhook, other).expect(201);

      expect(reused.headers['idempotent-replayed']).toBeUndefined();
      expect(reused.body).toMatchObject({ userId: carol, subject: 'Something else' });
      await send(alice, aliceKeys.withWebhook, other).expect(422);
      expect(await aliceState()).toEqual(made.aliceBefore);
    });
  });
});
