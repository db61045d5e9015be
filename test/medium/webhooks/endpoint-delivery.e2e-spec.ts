// Account-wide events reaching endpoints (docs/delivery-and-deliverability.md#webhooks) through a real HTTP receiver, each request
// verified by the standardwebhooks and svix libraries: fan-out beside a message's own webhook,
// test events, rotation, endpoints disabled or deleted with events in flight, and replay.
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { deliveriesOf, secretOf } from '../../support/webhooks/webhook-endpoints';
import { createEndpoint, eventsAt, typesAt } from '../../support/webhook-endpoints/endpoint-support';
import { BOTH, NEITHER, verdicts } from '../../support/webhook-endpoints/library-verification';

describe('webhook endpoints: deliveries (ROLE=all, real receiver, docs/delivery-and-deliverability.md#webhooks)', () => {
  const { receiver, t, send } = bootWebhookApp({
    ...TO_LOOPBACK,
    WEBHOOK_DISABLE_AFTER_SECONDS: '2',
  });

  it(
    'fans each event out to every subscribing endpoint and the message webhook, once each, with one webhook-id',
    async () => {
      const userId = newUserId('fan-out');
      const [everything, sentOnly, suppressions, own] = ['all', 'sent', 'suppressions', 'own'].map(newPath);
      const all = await createEndpoint(t.http, userId, receiver.url(everything));
      const sent = await createEndpoint(t.http, userId, receiver.url(sentOnly), ['message.sent']);
      const lists = await createEndpoint(t.http, userId, receiver.url(suppressions), [
        'suppression.created',
        'suppression.deleted',
      ]);

      const accepted = await send(userId, { webhook: { url: receiver.url(own), status: [] } });
      await waitForStatus(t.http, userId, accepted.id, 'sent');
      await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: 'zed@example.com' }).expect(201);
      await t.http.delete('/user/suppressions/zed@example.com').set(bearer(userId)).expect(204);
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      const messageTypes = ['message.queued', 'message.sending', 'message.sent'];
      expect(typesAt(receiver, everything)).toEqual([...messageTypes, 'suppression.created', 'suppression.deleted']);
      expect(typesAt(receiver, sentOnly)).toEqual(['message.sent']);
      expect(typesAt(receiver, suppressions)).toEqual(['suppression.created', 'suppression.deleted']);
      expect(typesAt(receiver, own)).toEqual(messageTypes);
      // Exactly once each: every receiver answered 200 at once, so no webhook-id came twice.
      for (const path of [everything, sentOnly, suppressions, own])
        for (const { requests } of eventsAt(receiver, path)) expect(requests.map((r) => r.answered)).toEqual([200]);

      // One event, one moment: every target's body of a webhook-id carries the same timestamp
      // (each target's row used to take its own clock_timestamp(), a millisecond apart at times).
      const momentsById = new Map<string, Set<string>>();
      for (const path of [everything, sentOnly, suppressions, own])
        for (const { event, requests } of eventsAt(receiver, path)) {
          const id = String(requests[0].headers['webhook-id']);
          momentsById.set(id, (momentsById.get(id) ?? new Set<string>()).add(event.timestamp));
        }
      expect(momentsById.size).toBe(5);
      const moments = [...momentsById].map(([id, timestamps]) => [id, [...timestamps]]);
      expect(moments.filter(([, timestamps]) => timestamps.length !== 1)).toEqual([]);

      // One event, one webhook-id, whatever the target; an endpoint's body names it.
      const sentAt = (path: string) => eventsAt(receiver, path).find(({ event }) => event.type === 'message.sent')!;
      const ids = [everything, sentOnly, own].map((path) => String(sentAt(path).requests[0].headers['webhook-id']));
      expect(new Set(ids).size).toBe(1);
      expect(sentAt(everything).event).toEqual({
        id: ids[0],
        type: 'message.sent',
        timestamp: sentAt(own).event.timestamp,
        data: sentAt(own).event.data,
      });
      expect(sentAt(sentOnly).event.data.message).toMatchObject({ id: accepted.id, status: 'sent' });
      const created = eventsAt(receiver, suppressions).find(({ event }) => event.type === 'suppression.created')!;
      expect(created.event.data).toEqual({
        suppression: {
          email: 'zed@example.com',
          reason: 'manual',
          scope: 'all',
          messageId: null,
          createdAt: expect.any(String),
        },
      });

      // Each endpoint signs with its own secret, the message's webhook with the user's (docs/delivery-and-deliverability.md#webhooks).
      const userSecret = await secretOf(t.http, userId);
      const signedBy: [string, string][] = [
        [everything, all.secret],
        [sentOnly, sent.secret],
        [suppressions, lists.secret],
        [own, userSecret],
      ];
      for (const [path, secret] of signedBy)
        for (const request of receiver.on(path)) {
          expect({ path, verdicts: verdicts(secret, request) }).toEqual({ path, verdicts: BOTH });
          expect({ path, otherSecret: verdicts(path === own ? all.secret : userSecret, request) }).toEqual({
            path,
            otherSecret: NEITHER,
          });
        }

      // The log lists both kinds, filtered by endpoint and type (docs/delivery-and-deliverability.md#webhooks).
      const bySent = await deliveriesOf(t.http, userId, { endpointId: sent.id });
      expect(bySent.deliveries).toEqual([
        expect.objectContaining({ eventId: ids[0], endpointId: sent.id, type: 'message.sent', state: 'delivered' }),
      ]);
      expect(bySent.deliveries[0].id).not.toBe(ids[0]);
      const sentEvents = await deliveriesOf(t.http, userId, { type: 'message.sent' });
      expect(sentEvents.deliveries.map((d: { endpointId: string | null }) => d.endpointId).sort()).toEqual(
        [all.id, sent.id, null].sort(),
      );
      const deleted = await deliveriesOf(t.http, userId, { type: 'suppression.deleted' });
      expect(
        deleted.deliveries.map((d: { endpointId: string; messageId: null }) => [d.endpointId, d.messageId]).sort(),
      ).toEqual(
        [
          [all.id, null],
          [lists.id, null],
        ].sort(),
      );

      // Replay of an endpoint's delivery: the same body and webhook-id again, signed anew.
      const delivery = bySent.deliveries[0];
      await t.http.post(`/user/webhook-deliveries/${delivery.id}/replay`).set(bearer(userId)).expect(202);
      await receiver.waitFor(() => receiver.on(sentOnly).length === 2, 'the replayed message.sent');
      const [first, again] = receiver.on(sentOnly);
      expect([again.headers['webhook-id'], again.rawBody]).toEqual([first.headers['webhook-id'], first.rawBody]);
      expect(verdicts(sent.secret, again)).toEqual(BOTH);

      // Not for a disabled endpoint: a 409, as its test gets, and the delivery stays as it was.
      await t.http.patch(`/user/webhook-endpoints/${sent.id}`).set(bearer(userId)).send({ enabled: false }).expect(200);
      const refused = await t.http.post(`/user/webhook-deliveries/${delivery.id}/replay`).set(bearer(userId));
      expect([refused.status, refused.body.detail]).toEqual([409, expect.stringMatching(/disabled/)]);
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
      const afterRefusal = await deliveriesOf(t.http, userId, { endpointId: sent.id });
      expect(afterRefusal.deliveries).toEqual([expect.objectContaining({ id: delivery.id, state: 'delivered' })]);
      expect(receiver.on(sentOnly)).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    'sends a test event to that endpoint alone, and signs with both secrets after a rotation',
    async () => {
      const userId = newUserId('rotation');
      const [tested, bystander] = ['tested', 'bystander'].map(newPath);
      const endpoint = await createEndpoint(t.http, userId, receiver.url(tested), ['domain.verified']);
      await createEndpoint(t.http, userId, receiver.url(bystander));

      const rotated = await t.http
        .post(`/user/webhook-endpoints/${endpoint.id}/rotate-secret`)
        .set(bearer(userId))
        .expect(200);
      const { body } = await t.http.post(`/user/webhook-endpoints/${endpoint.id}/test`).set(bearer(userId)).expect(202);
      await receiver.waitFor(() => receiver.withId(body.eventId).some((r) => r.answered === 200), 'the test event');
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      const [request] = receiver.withId(body.eventId);
      expect(receiver.withId(body.eventId)).toHaveLength(1);
      expect(receiver.on(bystander)).toEqual([]);
      expect(JSON.parse(request.rawBody)).toEqual({
        id: body.eventId,
        type: 'endpoint.test',
        timestamp: expect.any(String),
        data: { endpointId: endpoint.id },
      });
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      expect(verdicts(rotated.body.secret, request)).toEqual(BOTH);
      expect(verdicts(endpoint.secret, request)).toEqual(BOTH);
      const shown = await t.http.get(`/user/webhook-endpoints/${endpoint.id}/secret`).set(bearer(userId)).expect(200);
      expect(shown.body).toEqual({ secret: rotated.body.secret });
    },
    TIMEOUT,
  );

  it(
    'starts no attempt for an endpoint disabled or deleted while its event waits for a retry, and queues nothing while disabled',
    async () => {
      const userId = newUserId('in-flight');
      const [toDisable, toDelete, witness] = ['disable', 'delete', 'witness'].map(newPath);
      const disabled = await createEndpoint(t.http, userId, receiver.url(toDisable));
      const deleted = await createEndpoint(t.http, userId, receiver.url(toDelete));
      receiver.reply = (request) => ({ status: [toDisable, toDelete].includes(request.path) ? 500 : 200 });

      const tests: string[] = [];
      for (const endpoint of [disabled, deleted])
        tests.push(
          (await t.http.post(`/user/webhook-endpoints/${endpoint.id}/test`).set(bearer(userId)).expect(202)).body
            .eventId as string,
        );
      await receiver.waitFor(
        () => tests.every((id) => receiver.withId(id).some((r) => r.answered === 500)),
        'the first, failed attempts',
      );
      await t.http
        .patch(`/user/webhook-endpoints/${disabled.id}`)
        .set(bearer(userId))
        .send({ enabled: false })
        .expect(200);
      await t.http.delete(`/user/webhook-endpoints/${deleted.id}`).set(bearer(userId)).expect(204);
      // The retries (1 s later) run and find nothing to send.
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      expect(tests.map((id) => receiver.withId(id).length)).toEqual([1, 1]);
      const { deliveries } = await deliveriesOf(t.http, userId, { endpointId: disabled.id });
      expect(deliveries).toEqual([
        expect.objectContaining({
          state: 'failed',
          nextAttemptAt: null,
          attempts: [expect.objectContaining({ statusCode: 500 })],
        }),
      ]);
      expect((await deliveriesOf(t.http, userId, { endpointId: deleted.id })).deliveries).toEqual([]);

      // An event while disabled: the witness endpoint gets it; the disabled one has no delivery for it.
      await createEndpoint(t.http, userId, receiver.url(witness), ['suppression.created']);
      await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: 'quiet@example.com' }).expect(201);
      await receiver.waitFor(
        () => receiver.on(witness).some((r) => r.answered === 200),
        'suppression.created at the witness',
      );
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
      expect((await deliveriesOf(t.http, userId, { endpointId: disabled.id })).total).toBe(1);
      expect(receiver.on(toDisable)).toHaveLength(1);
    },
    TIMEOUT,
  );

  it(
    'disables an endpoint failing for WEBHOOK_DISABLE_AFTER_SECONDS with at least 5 failed attempts; enabling resumes it',
    async () => {
      const userId = newUserId('auto-disable');
      const failing = newPath('failing');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(failing));
      receiver.reply = (request) => ({ status: request.path === failing ? 503 : 200 });

      // A test event per failed attempt seen, until the endpoint refuses tests (409: disabled).
      let refused = false;
      for (let sent = 0; !refused && sent < 20; sent++) {
        const response = await t.http.post(`/user/webhook-endpoints/${endpoint.id}/test`).set(bearer(userId));
        refused = response.status === 409;
        if (!refused) await receiver.waitFor(() => receiver.on(failing).length > sent, `attempt ${sent + 1}`);
      }
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      const { body } = await t.http.get(`/user/webhook-endpoints/${endpoint.id}`).set(bearer(userId)).expect(200);
      expect(body).toMatchObject({ enabled: false, disabledReason: 'failing' });
      // As the service timed them: failing for 2 s at least, over at least 5 failed attempts.
      const log = await deliveriesOf(t.http, userId, { endpointId: endpoint.id, take: 100 });
      const attempts = log.deliveries
        .flatMap((d: { attempts: { attemptedAt: string; statusCode: number }[] }) => d.attempts)
        .map((a: { attemptedAt: string; statusCode: number }) => [Date.parse(a.attemptedAt), a.statusCode])
        .sort(([a]: number[], [b]: number[]) => a - b);
      expect(attempts.length).toBeGreaterThanOrEqual(5);
      expect(new Set(attempts.map(([, status]: number[]) => status))).toEqual(new Set([503]));
      expect(attempts.at(-1)[0] - attempts[0][0]).toBeGreaterThanOrEqual(2000);
      // No event of it waits for a retry: a disabled endpoint is sent nothing more.
      expect(log.deliveries.filter((d: { state: string }) => d.state === 'pending')).toEqual([]);
      expect(receiver.on(failing)).toHaveLength(attempts.length);

      receiver.reply = () => ({ status: 200 });
      const enabled = await t.http
        .patch(`/user/webhook-endpoints/${endpoint.id}`)
        .set(bearer(userId))
        .send({ enabled: true })
        .expect(200);
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null });
      const test = await t.http.post(`/user/webhook-endpoints/${endpoint.id}/test`).set(bearer(userId)).expect(202);
      await receiver.waitFor(
        () => receiver.withId(test.body.eventId).some((r) => r.answered === 200),
        'a test after enabling',
      );
      expect(verdicts(endpoint.secret, receiver.withId(test.body.eventId)[0])).toEqual(BOTH);
    },
    TIMEOUT,
  );
  it(
    'keeps an endpoint failing for an hour enabled until its 5th failed attempt, then sends it nothing more',
    async () => {
      const userId = newUserId('five-attempts');
      const failing = newPath('five');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(failing));
      receiver.reply = (request) => ({ status: request.path === failing ? 500 : 200 });
      // Failing for an hour already, with no attempt counted yet: only the count can hold it.
      await t.db.query(`UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour' WHERE id = $1`, [
        endpoint.id,
      ]);
      const test = async () =>
        (await t.http.post(`/user/webhook-endpoints/${endpoint.id}/test`).set(bearer(userId)).expect(202)).body
          .eventId as string;

      const first = await test();
      // WEBHOOK_RETRY_DELAYS=1,1: three attempts, then the event is given up.
      await receiver.waitFor(() => receiver.withId(first).length === 3, 'three attempts at the first event');
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);
      const stillEnabled = await t.http.get(`/user/webhook-endpoints/${endpoint.id}`).set(bearer(userId)).expect(200);
      expect(stillEnabled.body).toMatchObject({ enabled: true, disabledReason: null });

      const second = await test();
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      // Attempts 4 and 5 were made; the 5th disabled it, so the second event's third never started.
      expect(receiver.withId(second)).toHaveLength(2);
      expect(receiver.on(failing)).toHaveLength(5);
      const disabled = await t.http.get(`/user/webhook-endpoints/${endpoint.id}`).set(bearer(userId)).expect(200);
      expect(disabled.body).toMatchObject({ enabled: false, disabledReason: 'failing' });
      const { deliveries } = await deliveriesOf(t.http, userId, { endpointId: endpoint.id });
      expect(deliveries.map((d: { state: string; attempts: unknown[] }) => [d.state, d.attempts.length])).toEqual([
        ['failed', 2],
        ['failed', 3],
      ]);
    },
    TIMEOUT,
  );
});
