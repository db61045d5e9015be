// Complaints, auto-replies, unreadable reports and repeats (docs/delivery-and-deliverability.md#statuses, docs/delivery-and-deliverability.md): an ARF report makes the
// message complained and suppresses the address; an auto-reply changes nothing; what cannot be
// understood is recorded as unrecognized; the same report twice changes nothing more.
import { randomUUID } from 'node:crypto';
import { newUserId } from '../../support/tokens';
import { distinctEvents } from '../../support/webhooks/signatures';
import { newPath, TIMEOUT } from '../../support/webhooks/webhook-app';
import { bootBounceApp, BOUNCE_DOMAIN } from '../../support/bounces/bounce-app';
import { arf, autoReply, dsn } from '../../support/bounces/report-mail';
import { sendWithNodemailer, sendWithSmtplib } from '../../support/bounces/smtp-clients';
import { itIfPython } from '../../support/python';

const itWithPython = itIfPython("complaint-reports: the tests that speak through Python's smtplib");

const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const entries = (message: any) => message.statusHistory.map(({ at: _, ...entry }: { at: string }) => entry);
const USER_UNKNOWN = (to: string) => `550 5.1.1 <${to}>: Recipient address rejected: User unknown`;

describe('complaints and other reports at the inbound listener', () => {
  const app = bootBounceApp();
  const { receiver, t } = app;

  it(
    'makes the message complained on an ARF abuse report, suppresses the address (complaint) and fires the webhook',
    async () => {
      const userId = newUserId('complaint');
      const path = newPath('complaint');
      const to = address('angry');
      const { id, verp } = await app.deliver(userId, {
        to: [to],
        webhook: { url: receiver.url(path), status: ['complained'] },
      });

      expect(await sendWithNodemailer(app.inboundPort(), verp.get(to)!, arf(verp.get(to)!, id, to))).toMatchObject({
        accepted: true,
      });
      const message = await app.get(userId, id);
      expect(message.status).toBe('complained');
      expect(entries(message).at(-1)).toEqual({
        status: 'complained',
        detail: 'feedback report: abuse (ExampleFBL/1.0)',
        recipient: to,
      });
      expect(await app.suppressions(userId)).toEqual([
        expect.objectContaining({ email: to, reason: 'complaint', scope: 'all', messageId: id }),
      ]);
      await receiver.waitFor(() => receiver.on(path).length >= 1, 'the message.complained event');
      expect(
        distinctEvents(receiver.on(path)).map(({ event }) => [
          event.type,
          event.data.sequence,
          event.data.message.status,
        ]),
      ).toEqual([['message.complained', 4, 'complained']]);
      const metrics = (await t.http.get('/metrics').expect(200)).text;
      expect(metrics).toContain(`mailroom_complaints_total{user_id="${userId}",kind="abuse"} 1`);
    },
    TIMEOUT,
  );

  it(
    'applies a complaint sent to abuse@ (as feedback loops send them) through the VERP address it quotes, and none whose address is forged',
    async () => {
      const userId = newUserId('fbl');
      const [reader, other] = [address('reader'), address('other')];
      const { id, verp } = await app.deliver(userId, { to: [reader, other] });
      const forged = verp.get(other)!.replace(/\+(.)/, (_, digit: string) => `+${digit === '0' ? '1' : '0'}`);

      // Each reply comes once the report is read and applied, or found to name nothing.
      expect(
        await sendWithNodemailer(app.inboundPort(), `abuse@${BOUNCE_DOMAIN}`, arf(forged, id, other)),
      ).toMatchObject({ accepted: true });
      expect(
        await sendWithNodemailer(app.inboundPort(), `abuse@${BOUNCE_DOMAIN}`, arf(verp.get(reader)!, id, reader)),
      ).toMatchObject({ accepted: true });

      const message = await app.get(userId, id);
      expect(message.status).toBe('complained');
      expect(entries(message).filter(({ status }: { status: string }) => status === 'complained')).toEqual([
        { status: 'complained', detail: 'feedback report: abuse (ExampleFBL/1.0)', recipient: reader },
      ]);
      expect(await app.suppressions(userId)).toEqual([
        expect.objectContaining({ email: reader, reason: 'complaint', messageId: id }),
      ]);
    },
    TIMEOUT,
  );

  itWithPython(
    'takes fraud and opt-out-list feedback for complaints, and counts them by their type',
    async () => {
      const userId = newUserId('fraud');
      const [fooled, leaving] = [address('fooled'), address('leaving')];
      const { id, verp } = await app.deliver(userId, { to: [fooled, leaving] });
      for (const [to, type] of [
        [fooled, 'fraud'],
        [leaving, 'opt-out-list'],
      ]) {
        expect(await sendWithSmtplib(app.inboundPort(), verp.get(to)!, arf(verp.get(to)!, id, to, type))).toEqual({
          accepted: true,
        });
      }

      expect((await app.get(userId, id)).status).toBe('complained');
      expect((await app.suppressions(userId)).map(({ email, reason }) => [email, reason]).sort()).toEqual(
        [
          [fooled, 'complaint'],
          [leaving, 'complaint'],
        ].sort(),
      );
      const metrics = (await t.http.get('/metrics').expect(200)).text;
      expect(metrics).toContain(`mailroom_complaints_total{user_id="${userId}",kind="fraud"} 1`);
      expect(metrics).toContain(`mailroom_complaints_total{user_id="${userId}",kind="opt-out-list"} 1`);
    },
    TIMEOUT,
  );

  itWithPython(
    'moves a bounced message on to complained, and keeps the first entry of an address already suppressed',
    async () => {
      const userId = newUserId('bounced-then-complained');
      const to = address('both');
      const { id, verp } = await app.deliver(userId, { to: [to] });
      const rcpt = verp.get(to)!;
      await sendWithSmtplib(
        app.inboundPort(),
        rcpt,
        dsn(rcpt, id, [{ recipient: to, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(to) }]),
      );
      await sendWithSmtplib(app.inboundPort(), rcpt, arf(rcpt, id, to, 'opt-out'));

      const message = await app.get(userId, id);
      expect(
        entries(message)
          .slice(3)
          .map((e: { status: string }) => e.status),
      ).toEqual(['bounced', 'complained']);
      expect((await app.suppressions(userId)).map((s) => s.reason)).toEqual(['hard_bounce']);
    },
    TIMEOUT,
  );

  it(
    'changes nothing for an auto-reply (RFC 3834): the report that follows it is the only entry',
    async () => {
      const userId = newUserId('auto-reply');
      const path = newPath('auto-reply');
      const to = address('away');
      const { id, verp } = await app.deliver(userId, { to: [to], webhook: { url: receiver.url(path), status: [] } });
      const rcpt = verp.get(to)!;
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, autoReply(rcpt, to))).toMatchObject({ accepted: true });
      // The later signal: a complaint after it, whose webhook must be the fourth change.
      await sendWithNodemailer(app.inboundPort(), rcpt, arf(rcpt, id, to));
      await receiver.waitFor(
        () => distinctEvents(receiver.on(path)).some(({ event }) => event.type === 'message.complained'),
        'message.complained',
      );

      const message = await app.get(userId, id);
      expect(entries(message).map((e: { status: string }) => e.status)).toEqual([
        'queued',
        'sending',
        'sent',
        'complained',
      ]);
      expect(distinctEvents(receiver.on(path)).map(({ event }) => event.data.sequence)).toEqual([1, 2, 3, 4]);
    },
    TIMEOUT,
  );

  it(
    'records a mail it cannot understand as an unrecognized report, and nothing else',
    async () => {
      const userId = newUserId('unrecognized');
      const to = address('odd');
      const { id, verp } = await app.deliver(userId, { to: [to] });
      const rcpt = verp.get(to)!;
      const odd = Buffer.from(
        `From: someone@elsewhere.example\r\nTo: ${rcpt}\r\nSubject: hello\r\n\r\nJust saying hello.\r\n`,
      );
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, odd)).toMatchObject({ accepted: true });

      const message = await app.get(userId, id);
      expect(message.status).toBe('sent');
      expect(entries(message).at(-1)).toMatchObject({
        status: 'sent',
        recipient: to,
        detail: expect.stringMatching(/^unrecognized report: /),
      });
      expect(await app.suppressions(userId)).toEqual([]);
    },
    TIMEOUT,
  );

  itWithPython(
    'applies the same report twice only once: one entry, one webhook, one suppression, one count',
    async () => {
      const userId = newUserId('twice');
      const path = newPath('twice');
      const to = address('twice');
      const { id, verp } = await app.deliver(userId, {
        to: [to],
        webhook: { url: receiver.url(path), status: ['bounced', 'complained'] },
      });
      const rcpt = verp.get(to)!;
      const fields = [{ recipient: to, action: 'failed' as const, status: '5.1.1', diagnostic: USER_UNKNOWN(to) }];
      const report = dsn(rcpt, id, fields);
      // Once, then again as a sender that lost our reply would (the same bytes), in parallel with a third copy.
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, report)).toMatchObject({ accepted: true });
      const again = await Promise.all([
        sendWithNodemailer(app.inboundPort(), rcpt, report),
        sendWithSmtplib(app.inboundPort(), rcpt, report),
      ]);
      expect(again.map((o) => o.accepted)).toEqual([true, true]);
      // Regenerated (dsn() makes a new Message-ID) and come through one more hop.
      const relayed = Buffer.concat([
        Buffer.from('Received: from relay.example.net by mx2.example.org; Tue, 24 Nov 2026 10:05:00 +0000\r\n'),
        dsn(rcpt, id, fields),
      ]);
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, relayed)).toMatchObject({ accepted: true });
      // The later signal: a complaint, whose webhook comes after any the copies could have caused.
      await sendWithNodemailer(app.inboundPort(), rcpt, arf(rcpt, id, to));
      await receiver.waitFor(
        () => distinctEvents(receiver.on(path)).some(({ event }) => event.type === 'message.complained'),
        'message.complained',
      );

      const message = await app.get(userId, id);
      expect(entries(message).map((e: { status: string }) => e.status)).toEqual([
        'queued',
        'sending',
        'sent',
        'bounced',
        'complained',
      ]);
      expect(distinctEvents(receiver.on(path)).map(({ event }) => [event.type, event.data.sequence])).toEqual([
        ['message.bounced', 4],
        ['message.complained', 5],
      ]);
      expect((await app.suppressions(userId)).map((s) => s.reason)).toEqual(['hard_bounce']);
      const metrics = (await t.http.get('/metrics').expect(200)).text;
      expect(metrics).toContain(`mailroom_bounces_total{user_id="${userId}",kind="hard"} 1`);
    },
    TIMEOUT,
  );
});
