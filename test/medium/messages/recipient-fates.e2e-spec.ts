// Each recipient's fate (docs/delivery-and-deliverability.md#statuses "Recipients") and the relay's refusals during delivery (docs/delivery-and-deliverability.md),
// against a real SMTP sink: one transaction for all (no BOUNCE_DOMAIN) and one copy per recipient
// (BOUNCE_DOMAIN set), each refusal read by the report reader's rule.
import { randomUUID } from 'node:crypto';
import { deliveringApp } from '../../support/delivering-app';
import type { SinkReply } from '../../support/smtp-sink';
import { WebhookReceiver } from '../../support/webhook-receiver';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const TIMEOUT = 60_000;
const address = (label: string) => `${label}-${randomUUID()}@example.com`;
type Fate = { email: string; type: string; status: string; detail: string | null; at: string };
type Message = { id: string; status: string; recipients: Fate[]; statusHistory: { recipient?: string }[] };
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

for (const mode of ['one transaction', 'one copy per recipient'] as const) {
  describe(`recipient fates, ${mode}`, () => {
    const env: Record<string, string> = { DELIVERY_RETRY_DELAYS: '1', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };
    if (mode === 'one copy per recipient') env.BOUNCE_DOMAIN = 'bounces.example.test';
    const { t, sink } = deliveringApp(env);
    const receiver = new WebhookReceiver();
    beforeAll(() => receiver.start());
    afterAll(() => receiver.stop());

    const send = async (userId: string, fields: Record<string, unknown>): Promise<Message> =>
      (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields)).expect(201)).body;
    /** Far off, so that nothing happens to the message until the test makes it due (makeDue). */
    const later = () => new Date(Date.now() + 3_600_000).toISOString();
    /** Makes a scheduled message's delivery job due now: the delivery loop takes it at its next look. */
    const makeDue = (messageId: string) =>
      t.db.query(`UPDATE pgboss.job SET start_after = now() WHERE data->>'messageId' = $1 AND state = 'created'`, [
        messageId,
      ]);
    const suppressions = async (userId: string): Promise<{ email: string; reason: string; messageId: string }[]> =>
      (await t.http.get('/user/suppressions').set(bearer(userId)).expect(200)).body.suppressions;

    it(
      'a 550 5.1.1 refusal of one recipient fails it and suppresses it as hard_bounce; the message is sent',
      async () => {
        const userId = newUserId('fates');
        const [ok, gone] = [address('ok'), address('gone')];
        sink.refuseWith.set(gone, { code: 550, message: '5.1.1 <gone>: Recipient address rejected: User unknown' });
        const accepted = await send(userId, { to: [ok], cc: [gone] });
        expect(accepted.recipients).toEqual([
          { email: ok, type: 'to', status: 'pending', detail: null, at: expect.stringMatching(ISO_MS), route: null },
          { email: gone, type: 'cc', status: 'pending', detail: null, at: expect.stringMatching(ISO_MS), route: null },
        ]);
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
          [ok, 'sent'],
          [gone, 'failed'],
        ]);
        expect(sent.recipients[1].detail).toContain('5.1.1');
        // The entry naming the recipient reads what happened to it, not the message's status.
        expect(sent.statusHistory.filter((e) => e.recipient === gone)).toEqual([
          expect.objectContaining({ status: 'failed', detail: expect.stringContaining('5.1.1') }),
        ]);
        expect(await suppressions(userId)).toEqual([
          expect.objectContaining({ email: gone, reason: 'hard_bounce', messageId: accepted.id }),
        ]);
        // The list shows the same fates; the message is sent, so statuses=failed does not find it.
        const list = (await t.http.get('/user/messages').set(bearer(userId)).expect(200)).body.messages;
        expect(list[0].recipients).toEqual(sent.recipients);
        const failed = await t.http.get('/user/messages?statuses=failed').set(bearer(userId)).expect(200);
        expect(failed.body.messages).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      'a recipient at an internationalized domain refused 550 5.1.1 is failed and suppressed (the relay names it in A-labels)',
      async () => {
        const userId = newUserId('fates');
        const ok = address('ok');
        const gone = `gone-${randomUUID()}@bücher.example`;
        // nodemailer sends the domain in A-labels (and names the refusal so); the sink reads them back as U-labels.
        sink.refuseWith.set(gone, { code: 550, message: '5.1.1 User unknown' });
        const accepted = await send(userId, { to: [ok, gone] });
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
          [ok, 'sent'],
          [gone, 'failed'],
        ]);
        expect(await suppressions(userId)).toEqual([expect.objectContaining({ email: gone, reason: 'hard_bounce' })]);
      },
      TIMEOUT,
    );

    it(
      'a 550 5.7.1 policy refusal fails the recipient without suppressing it',
      async () => {
        const userId = newUserId('fates');
        const [ok, blocked] = [address('ok'), address('blocked')];
        sink.refuseWith.set(blocked, { code: 550, message: '5.7.1 Rejected by policy' });
        const accepted = await send(userId, { to: [ok, blocked] });
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
          [ok, 'sent'],
          [blocked, 'failed'],
        ]);
        expect(sent.recipients[1].detail).toContain('5.7.1 Rejected by policy');
        expect(await suppressions(userId)).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      "a 5.1.1 wording in reply to MAIL FROM or DATA, or a 450 4.1.1 at RCPT TO, suppresses no one (not about the recipient's address, or not for good)",
      async () => {
        const userId = newUserId('fates');
        const [viaData, busy] = [address('via-data'), address('busy')];
        try {
          // Every MAIL FROM refused while the first message is tried: a reply about our sender.
          sink.senderReply = () => ({ code: 550, message: '5.1.1 <sender> User unknown' });
          const fromSender = await send(userId, { to: [address('to')] });
          const failedAtSender: Message = await waitForStatus(t.http, userId, fromSender.id, 'failed');
          expect(failedAtSender.recipients.map((r) => r.status)).toEqual(['failed']);
          sink.senderReply = () => undefined;
          sink.reply = (mail): SinkReply =>
            JSON.stringify(mail.to).includes(viaData) ? { code: 550, message: '5.1.1 User unknown' } : 'accept';
          sink.refuseWith.set(busy, { code: 450, message: '4.1.1 User unknown, try later' });
          const fromData = await send(userId, { to: [viaData] });
          const fromBusy = await send(userId, { to: [busy] });
          for (const id of [fromData.id, fromBusy.id]) {
            const failed: Message = await waitForStatus(t.http, userId, id, 'failed');
            expect(failed.recipients.map((r) => r.status)).toEqual(['failed']);
          }
          expect(await suppressions(userId)).toEqual([]);
        } finally {
          sink.senderReply = () => undefined;
          sink.reply = () => 'accept';
        }
      },
      TIMEOUT,
    );

    it(
      'a lone recipient refused 550 5.1.1 fails the message and is suppressed, the entry naming it',
      async () => {
        const userId = newUserId('fates');
        const gone = address('gone');
        sink.refuseWith.set(gone, { code: 550, message: '5.1.1 User unknown' });
        const accepted = await send(userId, { to: [gone] });
        const failed: Message = await waitForStatus(t.http, userId, accepted.id, 'failed');
        expect(failed.recipients).toEqual([
          expect.objectContaining({
            email: gone,
            status: 'failed',
            detail: expect.stringContaining('5.1.1 User unknown'),
          }),
        ]);
        expect(failed.statusHistory.filter((e) => e.recipient === gone)).toHaveLength(1);
        expect(await suppressions(userId)).toEqual([expect.objectContaining({ email: gone, reason: 'hard_bounce' })]);
      },
      TIMEOUT,
    );

    it(
      'a suppressed recipient shows suppressed in the 201, and is delivered once taken off the list',
      async () => {
        const userId = newUserId('fates');
        const [ok, listed] = [address('ok'), address('listed')];
        await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: listed }).expect(201);
        const shown = await send(userId, { to: [ok, listed], scheduledAt: later() });
        expect(shown.recipients.map((r) => [r.email, r.status, r.detail])).toEqual([
          [ok, 'pending', null],
          [listed, 'suppressed', 'manual'],
        ]);
        await t.http.delete(`/user/suppressions/${listed}`).set(bearer(userId)).expect(204);
        await makeDue(shown.id);
        const sent: Message = await waitForStatus(t.http, userId, shown.id, 'sent');
        expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
          [ok, 'sent'],
          [listed, 'sent'],
        ]);
      },
      TIMEOUT,
    );

    it(
      'a recipient on the list at delivery is suppressed with its reason, the others sent',
      async () => {
        const userId = newUserId('fates');
        const [ok, listed] = [address('ok'), address('listed')];
        const accepted = await send(userId, { to: [ok, listed], scheduledAt: later() });
        await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: listed }).expect(201);
        await makeDue(accepted.id);
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(sent.recipients.map((r) => [r.email, r.status, r.detail])).toEqual([
          [ok, 'sent', expect.any(String)],
          [listed, 'suppressed', 'manual'],
        ]);
        expect(sent.statusHistory.filter((e) => e.recipient === listed)).toEqual([
          expect.objectContaining({ status: 'suppressed', detail: 'manual' }),
        ]);
      },
      TIMEOUT,
    );

    it(
      'a recipient refused for now (452) is deferred and tried again alone; the message is sent once it is accepted',
      async () => {
        const userId = newUserId('fates');
        const [ok, busy] = [address('ok'), address('busy')];
        sink.greylist.set(busy, 1);
        const accepted = await send(userId, { to: [ok, busy] });
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
          [ok, 'sent'],
          [busy, 'sent'],
        ]);
        expect(sent.statusHistory.map((e) => (e as { status: string }).status)).toEqual([
          'queued',
          'sending',
          'deferred',
          'sending',
          'sent',
        ]);
        // Each got the message once.
        expect(
          sink
            .acceptedFor(accepted.id)
            .flatMap((m) => m.to)
            .sort(),
        ).toEqual([ok, busy].sort());
        expect(await suppressions(userId)).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      'every recipient refused, one 550 5.1.1 and one 451: the first failed and suppressed at once, only the second tried again',
      async () => {
        const userId = newUserId('fates');
        const [gone, busy] = [address('gone'), address('busy')];
        sink.refuseWith.set(gone, { code: 550, message: '5.1.1 User unknown' });
        sink.greylist.set(busy, 1);
        const accepted = await send(userId, { to: [gone, busy] });
        const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
        expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
          [gone, 'failed'],
          [busy, 'sent'],
        ]);
        expect(sent.recipients[0].detail).toContain('5.1.1 User unknown');
        expect(await suppressions(userId)).toEqual([expect.objectContaining({ email: gone, reason: 'hard_bounce' })]);
        // gone was refused at the first attempt alone: the retry sent busy's copy, to nobody else.
        expect(sink.acceptedFor(accepted.id).map((m) => m.to)).toEqual([[busy]]);
        // Failed at the first attempt (the entry naming it comes before the retry), not at the retry.
        const history = sent.statusHistory as { status: string; recipient?: string }[];
        expect(history.filter((e) => e.recipient === gone)).toHaveLength(1);
        const named = history.findIndex((e) => e.recipient === gone);
        expect(history.slice(named + 1).map((e) => e.status)).toEqual(['sending', 'sent']);
      },
      TIMEOUT,
    );

    it(
      'a recipient suppressed at the first attempt stays suppressed on a retry of the copies refused for now, though taken off the list',
      async () => {
        const userId = newUserId('fates');
        const [ok, busy, listed] = [address('ok'), address('busy'), address('listed')];
        await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: listed }).expect(201);
        sink.greylist.set(busy, 1);
        // Taken off the list while the first attempt is under way (the sink holds ok's DATA for it).
        let released = false;
        sink.reply = async (mail): Promise<SinkReply> => {
          if (!released && JSON.stringify(mail.to).includes(ok)) {
            released = true;
            await t.http.delete(`/user/suppressions/${listed}`).set(bearer(userId)).expect(204);
          }
          return 'accept';
        };
        try {
          const accepted = await send(userId, { to: [ok, busy, listed] });
          const sent: Message = await waitForStatus(t.http, userId, accepted.id, 'sent');
          expect(released).toBe(true);
          expect(sent.recipients.map((r) => [r.email, r.status])).toEqual([
            [ok, 'sent'],
            [busy, 'sent'],
            [listed, 'suppressed'],
          ]);
          expect(sink.acceptedFor(accepted.id).flatMap((m) => m.to)).not.toContain(listed);
        } finally {
          sink.reply = () => 'accept';
        }
      },
      TIMEOUT,
    );

    it(
      "a message webhook's payload carries the recipients' fates as the message stood then",
      async () => {
        const userId = newUserId('fates');
        const [ok, gone] = [address('ok'), address('gone')];
        sink.refuseWith.set(gone, { code: 550, message: '5.1.1 User unknown' });
        const path = `/hook-${randomUUID()}`;
        await send(userId, { to: [ok, gone], webhook: { url: receiver.url(path), status: ['sent'] } });
        await receiver.waitFor(() => receiver.on(path).length > 0, 'the sent event');
        const { data } = JSON.parse(receiver.on(path)[0].rawBody) as { data: { message: Message } };
        expect(data.message.recipients.map((r) => [r.email, r.status])).toEqual([
          [ok, 'sent'],
          [gone, 'failed'],
        ]);
      },
      TIMEOUT,
    );

    it(
      'shows in the 201 an entry for bulk mail only on bulk mail (docs/delivery-and-deliverability.md scope)',
      async () => {
        const userId = newUserId('fates');
        const reader = address('reader');
        await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: reader, scope: 'bulk' }).expect(201);
        const reset = await send(userId, { to: [reader] });
        const newsletter = await send(userId, { to: [reader], bulkSendingId: 'spring' });
        expect(reset.recipients.map((r) => [r.status, r.detail])).toEqual([['pending', null]]);
        expect(newsletter.recipients.map((r) => [r.status, r.detail])).toEqual([['suppressed', 'manual']]);
        await waitForStatus(t.http, userId, reset.id, 'sent');
        await waitForStatus(t.http, userId, newsletter.id, 'suppressed');
      },
      TIMEOUT,
    );
  });
}
