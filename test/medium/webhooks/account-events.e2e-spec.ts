// The events of an account (docs/delivery-and-deliverability.md#webhooks) whatever causes them: recipients refused by the relay
// (recipient.failed, and the hard_bounce suppression that follows), a recipient suppressed at
// acceptance, an unsubscribe, and a domain whose DKIM record a real DNS server (dns2) serves or
// no longer serves. Each reaches a real receiver and is verified by standardwebhooks and svix.
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { TestDnsServer } from '../../support/dns-server';
import { waitForQueueSettled } from '../../support/queue-settled';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { unsubscribeTokens } from '../../support/unsubscribe/unsubscribe-support';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { createEndpoint, eventsAt, typesAt } from '../../support/webhook-endpoints/endpoint-support';
import { BOTH, verdicts } from '../../support/webhook-endpoints/library-verification';

describe('account events (ROLE=all, real receiver, SMTP sink and DNS server, docs/delivery-and-deliverability.md#webhooks)', () => {
  const dns = new TestDnsServer();
  const env: Record<string, string> = { ...TO_LOOPBACK };
  beforeAll(async () => {
    env.DNS_SERVERS = await dns.start();
  });
  afterAll(() => dns.stop());
  const { receiver, sink, t, send } = bootWebhookApp(env);

  const allVerified = (path: string, secret: string) => receiver.on(path).map((request) => verdicts(secret, request));
  // Events may arrive out of order (docs/delivery-and-deliverability.md#webhooks); each one's
  // timestamp is when its change happened, in milliseconds. The changes here are a request or more apart.
  const inOrderOfChange = (path: string) =>
    eventsAt(receiver, path)
      .map(({ event }) => event)
      .sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp));

  it(
    'tells of a recipient the relay refused, the hard_bounce suppression it caused, and its suppression at the next send',
    async () => {
      const userId = newUserId('recipients');
      const path = newPath('recipients');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(path), [
        'recipient.failed',
        'recipient.suppressed',
        'suppression.created',
      ]);
      const gone = `gone-${userId}@example.com`;
      sink.refuseWith.set(gone, { code: 550, message: '5.1.1 <gone>: Recipient address rejected: User unknown' });

      const first = await send(userId, { to: ['ada@example.com', gone] });
      await waitForStatus(t.http, userId, first.id, 'sent');
      const second = await send(userId, { to: ['ada@example.com', gone] });
      // Delivered to ada alone: its claim judged gone again and changed nothing (no second event).
      await waitForStatus(t.http, userId, second.id, 'sent');
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      expect(typesAt(receiver, path)).toEqual(['recipient.failed', 'recipient.suppressed', 'suppression.created']);
      const byType = Object.fromEntries(eventsAt(receiver, path).map(({ event }) => [event.type, event]));
      expect(byType['recipient.failed'].data.message).toMatchObject({ id: first.id, status: 'sent' });
      expect(byType['recipient.failed'].data.recipient).toEqual({
        email: gone,
        type: 'to',
        status: 'failed',
        detail: expect.stringContaining('5.1.1'),
        at: expect.any(String),
        route: null,
      });
      expect(byType['suppression.created'].data.suppression).toMatchObject({
        email: gone,
        reason: 'hard_bounce',
        messageId: first.id,
      });
      // Suppressed at acceptance (docs/delivery-and-deliverability.md#statuses): the 201 showed it, and the event was written with it.
      expect(second.recipients).toContainEqual(expect.objectContaining({ email: gone, status: 'suppressed' }));
      expect(byType['recipient.suppressed'].data.message).toMatchObject({ id: second.id, status: 'queued' });
      expect(byType['recipient.suppressed'].data.recipient).toMatchObject({ email: gone, status: 'suppressed' });
      expect(allVerified(path, endpoint.secret)).toEqual(receiver.on(path).map(() => BOTH));
    },
    TIMEOUT,
  );

  it(
    'tells of an unsubscribe (suppression.created) and its undo (suppression.deleted)',
    async () => {
      const userId = newUserId('unsubscribe');
      const path = newPath('unsubscribe');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(path), [
        'suppression.created',
        'suppression.deleted',
      ]);
      const reader = `reader-${userId}@example.com`;
      const message = await send(userId, { to: [reader], bulkSendingId: 'spring' });
      const token = unsubscribeTokens(t.config.deliverability.encryptionKey).encode({
        messageId: message.id,
        recipient: 0,
      });

      await t.http.post(`/unsubscribe/${token}`).expect(200);
      await t.http.post(`/unsubscribe/${token}/resubscribe`).expect(200);
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      const events = inOrderOfChange(path);
      expect(events.map((event) => [event.type, event.data.suppression.reason, event.data.suppression.scope])).toEqual([
        ['suppression.created', 'unsubscribe', 'bulk'],
        ['suppression.deleted', 'unsubscribe', 'bulk'],
      ]);
      expect(events.every((event) => event.data.suppression.email === reader)).toBe(true);
      expect(allVerified(path, endpoint.secret)).toEqual([BOTH, BOTH]);
    },
    TIMEOUT,
  );

  it(
    'tells of a domain verified, then pending once its record is gone, once per change',
    async () => {
      const userId = newUserId('domains');
      const path = newPath('domains');
      const endpoint = await createEndpoint(t.http, userId, receiver.url(path), ['domain.verified', 'domain.pending']);
      const { body: domain } = await t.http
        .post('/domains')
        .set(bearer(userId))
        .send({ name: `${userId.toLowerCase().replace(/[^a-z0-9]/g, '')}.example.org` })
        .expect(201);
      const dkim = domain.dnsRecords.find((record: { purpose: string }) => record.purpose === 'dkim');
      const verify = async (status: string) =>
        expect((await t.http.post(`/domains/${domain.id}/verify`).set(bearer(userId)).expect(200)).body.status).toBe(
          status,
        );

      await verify('pending'); // no change: no event
      dns.publish(dkim.name, dkim.value);
      await verify('verified');
      await verify('verified'); // no change: no event
      dns.unpublish(dkim.name);
      await verify('pending');
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      const events = inOrderOfChange(path);
      expect(events.map((event) => [event.type, event.data.domain.status])).toEqual([
        ['domain.verified', 'verified'],
        ['domain.pending', 'pending'],
      ]);
      const { body: now } = await t.http.get(`/domains/${domain.id}`).set(bearer(userId)).expect(200);
      expect(events[1].data.domain).toEqual(now);
      expect(allVerified(path, endpoint.secret)).toEqual([BOTH, BOTH]);
    },
    TIMEOUT,
  );
});
