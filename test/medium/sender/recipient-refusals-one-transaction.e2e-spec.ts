// A relay's refusals of some recipients of a message sent as one SMTP transaction (no
// BOUNCE_DOMAIN, no bulkSendingId), against a real SMTP sink: each recipient's fate follows what
// the relay said of it (docs/delivery-and-deliverability.md#statuses "Recipients"; #bounces-and-complaints, synchronous refusals), whatever its address
// looks like and whatever the others' refusals were.
import { randomUUID } from 'node:crypto';
import { deliveringApp } from '../../support/delivering-app';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const TIMEOUT = 60_000;
const address = (label: string, domain = 'example.com') => `${label}-${randomUUID()}@${domain}`;
type Fate = { email: string; type: string; status: string; detail: string | null };
type Message = { id: string; status: string; recipients: Fate[] };

describe('recipient refusals in one SMTP transaction', () => {
  // Two seconds between attempts: long enough to look at a deferred message, short enough to see it end.
  const { t, sink } = deliveringApp({ DELIVERY_RETRY_DELAYS: '2' });

  const send = async (userId: string, fields: Record<string, unknown>): Promise<Message> =>
    (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields)).expect(201)).body;
  const suppressions = async (userId: string): Promise<{ email: string; reason: string }[]> =>
    (await t.http.get('/user/suppressions').set(bearer(userId)).expect(200)).body.suppressions;
  const fates = (message: Message) => message.recipients.map((r) => [r.email, r.status]);
  const deliveredTo = (id: string) => sink.acceptedFor(id).flatMap((m) => m.to.map((to) => to.toLowerCase()));

  it(
    'fails and suppresses a recipient at an internationalized domain refused 550 5.1.1 (nodemailer names it in A-labels)',
    async () => {
      const userId = newUserId('idn');
      const [ok, gone] = [address('ok'), address('gone', 'bücher.example')];
      sink.refuseWith.set(gone, { code: 550, message: '5.1.1 <gone>: Recipient address rejected: User unknown' });
      const accepted = await send(userId, { to: [ok, gone] });
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
      expect(fates(sent)).toEqual([
        [ok, 'sent'],
        [gone, 'failed'],
      ]);
      expect(await suppressions(userId)).toEqual([expect.objectContaining({ email: gone, reason: 'hard_bounce' })]);
    },
    TIMEOUT,
  );

  it(
    'tries again a recipient at an internationalized domain refused for now (451), and delivers it',
    async () => {
      const userId = newUserId('idn');
      const [ok, busy] = [address('ok'), address('busy', 'bücher.example')];
      sink.greylist.set(busy, 1);
      const accepted = await send(userId, { to: [ok, busy] });
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
      // The message cannot end sent before the greylisted recipient got its copy: it must have been retried.
      expect(deliveredTo(accepted.id).sort()).toEqual([ok, busy].sort());
      expect(fates(sent)).toEqual([
        [ok, 'sent'],
        [busy, 'sent'],
      ]);
    },
    TIMEOUT,
  );

  it(
    'fails and suppresses at once a recipient refused 550 5.1.1 when the only other one is refused for now, none accepted',
    async () => {
      const userId = newUserId('mixed');
      const [busy, gone] = [address('busy'), address('gone')];
      sink.greylist.set(busy, 1);
      sink.refuseWith.set(gone, { code: 550, message: '5.1.1 User unknown' });
      const accepted = await send(userId, { to: [busy, gone] });
      // The relay took nobody: the message waits for the greylisted recipient, but gone's refusal was final.
      const deferred: Message = await waitForStatus(t.http, userId, accepted.id, 'deferred');
      expect(deferred.recipients.map((r) => [r.email, r.status, r.detail])).toEqual([
        [busy, 'deferred', expect.stringContaining('451')],
        [gone, 'failed', expect.stringContaining('5.1.1 User unknown')],
      ]);
      expect(await suppressions(userId)).toEqual([expect.objectContaining({ email: gone, reason: 'hard_bounce' })]);
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
      expect(fates(sent)).toEqual([
        [busy, 'sent'],
        [gone, 'failed'],
      ]);
    },
    TIMEOUT,
  );

  it(
    'leaves no recipient pending once the message is sent: one skipped as suppressed and taken off the list while another was retried',
    async () => {
      const userId = newUserId('released');
      const [ok, busy, listed] = [address('ok'), address('busy'), address('listed')];
      sink.greylist.set(busy, 1);
      await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: listed }).expect(201);
      const accepted = await send(userId, { to: [ok, busy, listed] });
      await waitForStatus(t.http, userId, accepted.id, 'deferred');
      // Before the retry, which sends the greylisted recipient's copy alone.
      await t.http.delete(`/user/suppressions/${listed}`).set(bearer(userId)).expect(204);
      const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
      const gotIt = deliveredTo(accepted.id).includes(listed);
      // Either it was sent after all, or it stays as the delivery that skipped it left it: never pending.
      expect(fates(sent)).toEqual([
        [ok, 'sent'],
        [busy, 'sent'],
        [listed, gotIt ? 'sent' : 'suppressed'],
      ]);
    },
    TIMEOUT,
  );
});
