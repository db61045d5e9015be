// Reports that try to reach what their token does not name (docs/delivery-and-deliverability.md#statuses, docs/delivery-and-deliverability.md): a VERP token of one
// user's message with a report about another user's recipient, reports for messages past or short
// of `sent`, repeated and late complaints. Only the transitions of docs/delivery-and-deliverability.md#statuses may happen; each "nothing more
// happened" is read after the listener's 250 (sent once the report is committed) and, for
// webhooks, after the webhook queue has settled.
import { randomUUID } from 'node:crypto';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { WEBHOOK_QUEUE } from '../../../src/platform/queue/webhook-queue';
import { storeMessage } from '../../support/factories';
import { waitForQueueSettled } from '../../support/queue-settled';
import { newUserId } from '../../support/tokens';
import { distinctEvents } from '../../support/webhooks/signatures';
import { newPath, TIMEOUT } from '../../support/webhooks/webhook-app';
import { BOUNCE_DOMAIN, bootBounceApp, ENCRYPTION_KEY } from '../../support/bounces/bounce-app';
import { arf, dsn } from '../../support/bounces/report-mail';
import { sendWithNodemailer, sendWithSmtplib } from '../../support/bounces/smtp-clients';
import { itIfPython } from '../../support/python';

const itWithPython = itIfPython("foreign-reports: the tests that speak through Python's smtplib");

const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const statuses = (message: any) => message.statusHistory.map((e: { status: string }) => e.status);
const USER_UNKNOWN = (to: string) =>
  `550 5.1.1 <${to}>: Recipient address rejected: User unknown in local recipient table`;
const hardBounce = (rcpt: string, id: string, recipient: string) =>
  dsn(rcpt, id, [{ recipient, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(recipient) }]);
const verpOf = (messageId: string, recipient = 0) =>
  `bounces+${new RecipientTokens(ENCRYPTION_KEY, 'verp').encode({ messageId, recipient })}@${BOUNCE_DOMAIN}`;

describe('reports that name what their token does not', () => {
  const app = bootBounceApp();
  const { receiver, t } = app;
  const suppressedEverywhere = async (email: string) =>
    await t.db.query<{ user_id: string; reason: string }[]>(
      `SELECT user_id, reason FROM suppressions WHERE lower(email) = lower($1)`,
      [email],
    );

  itWithPython(
    "never touches user B when A's token carries a report about B's recipient, or B's own address",
    async () => {
      const [userA, userB] = [newUserId('owner-a'), newUserId('owner-b')];
      const [toA, toB] = [address('a'), address('b')];
      const a = await app.deliver(userA, { to: [toA] });
      const b = await app.deliver(userB, { to: [toB] });
      const rcpt = a.verp.get(toA)!;

      for (const named of [toB, 'sender@example.com']) {
        expect(await sendWithNodemailer(app.inboundPort(), rcpt, hardBounce(rcpt, b.id, named))).toMatchObject({
          accepted: true,
        });
        expect(await sendWithSmtplib(app.inboundPort(), rcpt, arf(rcpt, b.id, named))).toEqual({ accepted: true });
      }

      // A's token says the reports are about A's copy (a forwarder names the mailbox it forwarded
      // to): the complaint counts for A's recipient; another address's hard bounce bounces A's
      // message but suppresses no one.
      const messageA = await app.get(userA, a.id);
      expect(messageA.status).toBe('complained');
      expect(await app.suppressions(userA)).toEqual([expect.objectContaining({ email: toA, reason: 'complaint' })]);
      // B's message and both lists: untouched.
      const messageB = await app.get(userB, b.id);
      expect(statuses(messageB)).toEqual(['queued', 'sending', 'sent']);
      expect(await suppressedEverywhere(toB)).toEqual([]);
      expect(await suppressedEverywhere('sender@example.com')).toEqual([]);
    },
    TIMEOUT,
  );

  it.each(['scheduled', 'queued', 'sending', 'deferred', 'canceled', 'failed', 'suppressed'] as const)(
    'leaves a %s message in its status on a hard bounce and a complaint',
    async (status) => {
      const userId = newUserId(`report-for-${status}`);
      const to = address(status);
      // Straight into the database, scheduled a day ahead so that no worker delivers it, then moved to the status.
      const message = await storeMessage(t.db, userId, {
        recipients: [to],
        scheduledAt: new Date(Date.now() + 86_400_000),
        status,
      });
      // storeMessage leaves `queued` as accepted (scheduled): moved by hand, as no delivery job must exist for it.
      if (status === 'queued') await t.db.query(`UPDATE messages SET status = 'queued' WHERE id = $1`, [message.id]);
      const rcpt = verpOf(message.id);

      // Before the relay's acceptance is recorded, a report is refused for now (the sender retries); after it, taken.
      const answer = ['scheduled', 'queued', 'sending', 'deferred'].includes(status)
        ? { accepted: false, code: 451 }
        : { accepted: true };
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, hardBounce(rcpt, message.id, to))).toMatchObject(answer);
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, arf(rcpt, message.id, to))).toMatchObject(answer);

      const [{ status: after }] = await t.db.query(`SELECT status FROM messages WHERE id = $1`, [message.id]);
      expect(after).toBe(status);
      const events: { status: string }[] = await t.db.query(
        `SELECT status FROM message_status_events WHERE message_id = $1`,
        [message.id],
      );
      expect(events.map((e) => e.status)).not.toContain('bounced');
      expect(events.map((e) => e.status)).not.toContain('complained');
    },
    TIMEOUT,
  );

  itWithPython(
    'changes nothing more for a second complaint (other bytes) or a bounce after the complaint: one webhook, one suppression',
    async () => {
      const userId = newUserId('complained-again');
      const path = newPath('complained-again');
      const to = address('angry');
      const { id, verp } = await app.deliver(userId, { to: [to], webhook: { url: receiver.url(path), status: [] } });
      const rcpt = verp.get(to)!;

      expect(await sendWithNodemailer(app.inboundPort(), rcpt, arf(rcpt, id, to, 'abuse'))).toMatchObject({
        accepted: true,
      });
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, arf(rcpt, id, to, 'opt-out'))).toMatchObject({
        accepted: true,
      });
      expect(await sendWithSmtplib(app.inboundPort(), rcpt, hardBounce(rcpt, id, to))).toEqual({ accepted: true });
      await receiver.waitFor(
        () => distinctEvents(receiver.on(path)).some(({ event }) => event.type === 'message.complained'),
        'message.complained',
      );
      // Every event the three reports could have caused was enqueued in their transactions: all are done now.
      await waitForQueueSettled(t.db, WEBHOOK_QUEUE);

      const message = await app.get(userId, id);
      expect(message.status).toBe('complained');
      expect(statuses(message).filter((s: string) => s !== 'complained')).toEqual(['queued', 'sending', 'sent']);
      expect(statuses(message).slice(3)).toEqual(['complained', 'complained', 'complained']);
      const events = distinctEvents(receiver.on(path)).map(({ event }) => [event.data.sequence, event.type]);
      expect(events.sort(([x], [y]) => Number(x) - Number(y))).toEqual([
        [1, 'message.queued'],
        [2, 'message.sending'],
        [3, 'message.sent'],
        [4, 'message.complained'],
      ]);
      expect((await app.suppressions(userId)).map((s) => [s.email, s.reason])).toEqual([[to, 'complaint']]);
    },
    TIMEOUT,
  );

  it(
    'bounces a message to an internationalized domain on the DSN its relay writes, naming the domain in A-labels',
    async () => {
      const userId = newUserId('idn-bounce');
      const local = `ada-${randomUUID()}`;
      const to = `${local}@bücher.example`;
      const { id, verp } = await app.deliver(userId, { to: [to] });
      const rcpt = verp.get(to)!;
      expect(rcpt).toMatch(/^bounces\+/);

      // SMTP carries the domain as an A-label (nodemailer converts it); the relay's DSN names the address as it was given.
      const report = hardBounce(rcpt, id, `${local}@xn--bcher-kva.example`);
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, report)).toMatchObject({ accepted: true });

      const message = await app.get(userId, id);
      expect(message.status).toBe('bounced');
      expect(message.statusHistory.at(-1)).toMatchObject({ status: 'bounced', recipient: to });
      expect(await app.suppressions(userId)).toEqual([
        expect.objectContaining({ email: to, reason: 'hard_bounce', messageId: id }),
      ]);
    },
    TIMEOUT,
  );

  itWithPython(
    'answers a VERP token on /unsubscribe/ with 404, and an unsubscribe token of a message deleted since with 404 and 550, changing nothing',
    async () => {
      const userId = newUserId('unsubscribe-cross');
      const to = address('list');
      const { id, verp } = await app.deliver(userId, { to: [to], bulkSendingId: `bulk-${randomUUID()}` });
      const verpToken = verp.get(to)!.slice('bounces+'.length, verp.get(to)!.indexOf('@'));
      for (const accept of ['application/json', 'text/html']) {
        await t.http
          .post(`/unsubscribe/${verpToken}`)
          .set('Accept', accept)
          .send('List-Unsubscribe=One-Click')
          .expect(404);
        await t.http.get(`/unsubscribe/${verpToken}`).set('Accept', accept).expect(404);
      }
      expect(await app.suppressions(userId)).toEqual([]);

      const unsubscribeToken = new RecipientTokens(ENCRYPTION_KEY, 'unsubscribe').encode({
        messageId: id,
        recipient: 0,
      });
      await t.db.query(`DELETE FROM messages WHERE id = $1`, [id]);
      const problem = await t.http
        .post(`/unsubscribe/${unsubscribeToken}`)
        .send('List-Unsubscribe=One-Click')
        .expect(404);
      expect(problem.headers['content-type']).toMatch(/^application\/problem\+json/);
      await t.http.get(`/unsubscribe/${unsubscribeToken}`).set('Accept', 'text/html').expect(404);
      const mailto = `unsubscribe+${unsubscribeToken}@${BOUNCE_DOMAIN}`;
      expect(
        await sendWithSmtplib(app.inboundPort(), mailto, Buffer.from('Subject: unsubscribe\r\n\r\n')),
      ).toMatchObject({ accepted: false, code: 550 });
      expect(await suppressedEverywhere(to)).toEqual([]);
    },
    TIMEOUT,
  );

  itWithPython(
    'applies a report whose words carry a NUL (which PostgreSQL text cannot hold) rather than answering 451 to it for ever',
    async () => {
      const userId = newUserId('nul-in-report');
      const to = address('nul');
      const { id, verp } = await app.deliver(userId, { to: [to] });
      const rcpt = verp.get(to)!;
      const report = dsn(rcpt, id, [
        { recipient: to, action: 'failed', status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full\u0000 (quota)' },
      ]);
      expect(await sendWithSmtplib(app.inboundPort(), rcpt, report)).toEqual({ accepted: true });
      const message = await app.get(userId, id);
      expect(message.status).toBe('bounced');
      expect(message.statusHistory.at(-1)).toMatchObject({
        status: 'bounced',
        recipient: to,
        detail: '552 5.2.2 Mailbox full\ufffd (quota)',
      });
    },
    TIMEOUT,
  );

  it(
    'puts a complaint without Original-Rcpt-To on the recipient its token names, not on everyone the returned To lists',
    async () => {
      const userId = newUserId('complaint-to-list');
      const [first, second] = [address('first'), address('second')];
      const { id, verp } = await app.deliver(userId, { to: [first, second] });
      const rcpt = verp.get(second)!;
      // As Yahoo's and AOL's loops send them: no Original-Rcpt-To; the returned copy's To shows both recipients.
      const report = Buffer.from(
        [
          'From: Feedback Loop <fbl@isp.example>',
          `To: ${rcpt}`,
          'Subject: FW: Your invoice',
          'MIME-Version: 1.0',
          'Content-Type: multipart/report; report-type=feedback-report; boundary="fbl"',
          '',
          '--fbl',
          'Content-Type: text/plain',
          '',
          'This is an abuse report.',
          '',
          '--fbl',
          'Content-Type: message/feedback-report',
          '',
          'Feedback-Type: abuse',
          'User-Agent: ExampleFBL/1.0',
          'Version: 1',
          '',
          '--fbl',
          'Content-Type: message/rfc822',
          '',
          'From: billing@example.com',
          `To: ${first}, ${second}`,
          'Subject: Your invoice',
          '',
          'Hello',
          '',
          '--fbl--',
          '',
        ].join('\r\n'),
      );
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, report)).toMatchObject({ accepted: true });

      const message = await app.get(userId, id);
      expect(message.status).toBe('complained');
      expect(message.statusHistory.slice(3).map((e: { recipient: string }) => e.recipient)).toEqual([second]);
      expect((await app.suppressions(userId)).map((s) => [s.email, s.reason])).toEqual([[second, 'complaint']]);
    },
    TIMEOUT,
  );

  itWithPython(
    'ends complained whichever of a concurrent bounce and complaint commits first, with one suppression',
    async () => {
      const userId = newUserId('bounce-vs-complaint');
      const delivered = await Promise.all(
        Array.from({ length: 8 }, async () => {
          const to = address('race');
          return { to, ...(await app.deliver(userId, { to: [to] })) };
        }),
      );
      await Promise.all(
        delivered.flatMap(({ to, id, verp }) => {
          const rcpt = verp.get(to)!;
          return [
            sendWithNodemailer(app.inboundPort(), rcpt, hardBounce(rcpt, id, to)),
            sendWithSmtplib(app.inboundPort(), rcpt, arf(rcpt, id, to)),
          ];
        }),
      ).then((outcomes) => expect(outcomes.map((o) => o.accepted)).toEqual(Array(16).fill(true)));

      const suppressed = await app.suppressions(userId);
      for (const { to, id } of delivered) {
        const message = await app.get(userId, id);
        expect(message.status).toBe('complained');
        const after = statuses(message).slice(3);
        // bounced then complained (and the complaint's entry), or complained then the bounce noted under it.
        expect([
          ['bounced', 'complained'],
          ['complained', 'complained'],
        ]).toContainEqual(after);
        expect(suppressed.filter((s) => s.email === to)).toHaveLength(1);
      }
    },
    TIMEOUT,
  );
});
