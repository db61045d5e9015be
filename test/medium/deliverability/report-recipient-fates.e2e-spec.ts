// Reports at the inbound listener change the fate of the recipient they are about (docs/delivery-and-deliverability.md#statuses
// "Recipients", #bounces-and-complaints), whether or not the message moves: a bounce of a second recipient of a bounced
// message, a complaint after a bounce, a bounce after a complaint (the complaint stays); a report
// naming another recipient of the message changes nobody's fate.
import { randomUUID } from 'node:crypto';
import { newUserId } from '../../support/tokens';
import { TIMEOUT } from '../../support/webhooks/webhook-app';
import { bootBounceApp } from '../../support/bounces/bounce-app';
import { arf, dsn } from '../../support/bounces/report-mail';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';

const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const unknown = (to: string) => ({
  recipient: to,
  action: 'failed' as const,
  status: '5.1.1',
  diagnostic: `550 5.1.1 <${to}>: Recipient address rejected: User unknown`,
});
type Fate = { email: string; status: string; detail: string | null };

describe('recipient fates from reports', () => {
  const app = bootBounceApp();
  const report = async (verp: string, mail: Buffer) =>
    expect(await sendWithNodemailer(app.inboundPort(), verp, mail)).toMatchObject({ accepted: true });
  const fates = async (userId: string, id: string) =>
    ((await app.get(userId, id)) as { recipients: Fate[] }).recipients.map((r) => [r.email, r.status]);

  it(
    'bounces each recipient reported, keeps a complained one complained through a late bounce, and says so in the message',
    async () => {
      const userId = newUserId('report-fates');
      const [a, b, c] = [address('a'), address('b'), address('c')];
      const { id, verp } = await app.deliver(userId, { to: [a], cc: [b], bcc: [c] });

      await report(verp.get(b)!, dsn(verp.get(b)!, id, [unknown(b)]));
      await report(verp.get(c)!, dsn(verp.get(c)!, id, [unknown(c)]));
      // Bounced already: the message stays, the second recipient is bounced all the same.
      expect(await fates(userId, id)).toEqual([
        [a, 'sent'],
        [b, 'bounced'],
        [c, 'bounced'],
      ]);
      await report(verp.get(a)!, arf(verp.get(a)!, id, a));
      await report(verp.get(a)!, dsn(verp.get(a)!, id, [unknown(a)]));
      const message = await app.get(userId, id);
      expect(message.status).toBe('complained');
      expect(await fates(userId, id)).toEqual([
        [a, 'complained'],
        [b, 'bounced'],
        [c, 'bounced'],
      ]);
      // The complaint's entry stands: a later bounce never narrows it.
      expect((await app.suppressions(userId)).map((s) => [s.email, s.reason]).sort()).toEqual(
        [
          [a, 'complaint'],
          [b, 'hard_bounce'],
          [c, 'hard_bounce'],
        ].sort(),
      );
    },
    TIMEOUT,
  );

  it(
    "changes nobody's fate for a report through one recipient's address about another recipient of the message",
    async () => {
      const userId = newUserId('report-fates');
      const [a, b] = [address('a'), address('b')];
      const { id, verp } = await app.deliver(userId, { to: [a, b] });
      await report(verp.get(a)!, dsn(verp.get(a)!, id, [unknown(b)]));
      const message = await app.get(userId, id);
      expect(message.status).toBe('sent');
      expect(await fates(userId, id)).toEqual([
        [a, 'sent'],
        [b, 'sent'],
      ]);
      expect(await app.suppressions(userId)).toEqual([]);
    },
    TIMEOUT,
  );
});
