// Recipient events from reports at the inbound listener (docs/delivery-and-deliverability.md, docs/delivery-and-deliverability.md#webhooks): a bounce that moves the
// message, one that does not (its message bounced already), and a complaint after them, each a
// recipient event written with the fate it reports, beside the suppressions they cause.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { bootBounceApp } from '../../support/bounces/bounce-app';
import { arf, dsn } from '../../support/bounces/report-mail';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { waitForQueueSettled } from '../../support/queue-settled';
import { newUserId } from '../../support/tokens';
import { newPath, TIMEOUT } from '../../support/webhooks/webhook-app';
import { createEndpoint, eventsAt } from '../../support/webhook-endpoints/endpoint-support';
import { BOTH, verdicts } from '../../support/webhook-endpoints/library-verification';

const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const unknown = (to: string) => ({
  recipient: to,
  action: 'failed' as const,
  status: '5.1.1',
  diagnostic: `550 5.1.1 <${to}>: Recipient address rejected: User unknown`,
});

describe('recipient events from reports (ROLE=all, inbound listener, real receiver)', () => {
  const app = bootBounceApp();
  const report = async (verp: string, mail: Buffer) =>
    expect(await sendWithNodemailer(app.inboundPort(), verp, mail)).toMatchObject({ accepted: true });

  it(
    'writes recipient.bounced for each bounced recipient, moved message or not, and recipient.complained',
    async () => {
      const userId = newUserId('report-events');
      const path = newPath('report-events');
      const endpoint = await createEndpoint(app.t.http, userId, app.receiver.url(path), [
        'recipient.bounced',
        'recipient.complained',
        'message.bounced',
        'message.complained',
      ]);
      const [a, b] = [address('a'), address('b')];
      const { id, verp } = await app.deliver(userId, { to: [a, b] });

      await report(verp.get(a)!, dsn(verp.get(a)!, id, [unknown(a)]));
      // The message is bounced already: it does not move, its recipient is bounced all the same.
      await report(verp.get(b)!, dsn(verp.get(b)!, id, [unknown(b)]));
      await report(verp.get(a)!, arf(verp.get(a)!, id, a));
      await waitForQueueSettled(app.t.db, WEBHOOK_QUEUE);

      const events = eventsAt(app.receiver, path).map(({ event }) => event);
      const seen = events.map((event) => [event.type, event.data.recipient?.email ?? null, event.data.message.status]);
      expect(seen.sort()).toEqual(
        [
          ['message.bounced', null, 'bounced'],
          ['recipient.bounced', a, 'bounced'],
          ['recipient.bounced', b, 'bounced'],
          ['message.complained', null, 'complained'],
          ['recipient.complained', a, 'complained'],
        ].sort(),
      );
      const late = events.find((event) => event.type === 'recipient.bounced' && event.data.recipient.email === b)!;
      expect(late.data.recipient).toMatchObject({ status: 'bounced', detail: expect.stringContaining('5.1.1') });
      expect(late.data.message.recipients.map((r: { status: string }) => r.status)).toEqual(['bounced', 'bounced']);
      expect(eventsAt(app.receiver, path).every(({ requests }) => requests.length === 1)).toBe(true);
      expect(app.receiver.on(path).map((request) => verdicts(endpoint.secret, request))).toEqual(
        app.receiver.on(path).map(() => BOTH),
      );
    },
    TIMEOUT,
  );
});
