// inbound.received (docs/delivery-and-deliverability.md#webhooks, docs/inbound.md): written in the transaction that stores a received mail, and
// delivered to the owner's endpoints that subscribe to it, signed as standardwebhooks and svix
// (libraries nobody here wrote) verify it; the other user the same mail was for hears only of its
// own copy, and an endpoint subscribed to other types hears nothing.
import MailComposer from 'nodemailer/lib/mail-composer';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { bearer, newUserId } from '../../support/tokens';
import { createEndpoint, eventsAt } from '../../support/webhook-endpoints/endpoint-support';
import { BOTH, verdicts } from '../../support/webhook-endpoints/library-verification';
import { TO_LOOPBACK } from '../../support/webhooks/webhook-app';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';

const receiver = new WebhookReceiver();
beforeAll(() => receiver.start());
afterAll(() => receiver.stop());

describe('inbound.received', () => {
  const app = bootInboundApp(TO_LOOPBACK);

  it(
    "reaches each owner's subscribed endpoint once, as the list shows the mail, and no one else",
    async () => {
      const [ada, bob] = [newUserId('inbound-event-ada'), newUserId('inbound-event-bob')];
      const [adaDomain, bobDomain] = [await app.receivingDomain(ada), await app.receivingDomain(bob)];
      const adaEndpoint = await createEndpoint(app.t.http, ada, receiver.url('/ada'), ['inbound.received']);
      const bobEndpoint = await createEndpoint(app.t.http, bob, receiver.url('/bob'));
      // Subscribed to other types only: the witness that filters apply.
      const domainsOnly = await createEndpoint(app.t.http, ada, receiver.url('/ada-domains'), ['domain.verified']);

      const raw = await new MailComposer({
        from: 'Cara <cara@example.org>',
        to: [`desk@${adaDomain.name}`, `desk@${bobDomain.name}`],
        subject: 'For two teams',
        text: 'Hello',
        attachments: [{ filename: 'note.txt', content: 'a note', contentType: 'text/plain' }],
      })
        .compile()
        .build();
      expect(
        await sendWithNodemailer(
          app.port(),
          [`desk@${adaDomain.name}`, `desk@${bobDomain.name}`],
          raw,
          'cara@example.org',
        ),
      ).toMatchObject({ accepted: true });

      await receiver.waitFor(
        () => eventsAt(receiver, '/ada').length === 1 && eventsAt(receiver, '/bob').length === 1,
        'one inbound.received for each owner',
      );
      for (const [userId, path, endpoint, domain] of [
        [ada, '/ada', adaEndpoint, adaDomain],
        [bob, '/bob', bobEndpoint, bobDomain],
      ] as const) {
        const [{ event, requests }] = eventsAt(receiver, path);
        expect(event.type).toBe('inbound.received');
        expect(event.id).toBe(String(requests[0].headers['webhook-id']));
        expect(verdicts(endpoint.secret, requests[0])).toEqual(BOTH);
        const [listed] = (await app.list(userId)).inbound;
        expect(event.data).toEqual({ inbound: listed });
        expect(listed.envelope.rcptTo).toEqual([`desk@${domain.name}`]);
        expect(listed.attachments).toEqual([{ index: 0, fileName: 'note.txt', contentType: 'text/plain', size: 6 }]);
      }

      // The endpoint for domain events got no delivery of it: written in the mail's own transaction,
      // committed before Ada's event went out, so the log already holds everything it ever will.
      const witness = await app.t.http
        .get('/user/webhook-deliveries')
        .query({ endpointId: domainsOnly.id })
        .set(bearer(ada))
        .expect(200);
      expect(witness.body.total).toBe(0);
      const adaLog = await app.t.http
        .get('/user/webhook-deliveries')
        .query({ endpointId: adaEndpoint.id, type: 'inbound.received' })
        .set(bearer(ada))
        .expect(200);
      expect(adaLog.body.total).toBe(1);
    },
    TIMEOUT,
  );
});
