// Delivery status notifications back at the VERP address (docs/delivery-and-deliverability.md#statuses, docs/delivery-and-deliverability.md): a hard bounce bounces the
// message and suppresses the address, a soft one only bounces it, a delay notice is a history
// entry only; each status change fires its webhook. Reports arrive through real SMTP clients.
import { randomUUID } from 'node:crypto';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { bearer, newUserId } from '../../support/tokens';
import { SinkReply } from '../../support/smtp-sink';
import { waitForStatus } from '../../support/wait-for';
import { distinctEvents } from '../../support/webhooks/signatures';
import { newPath, TIMEOUT } from '../../support/webhooks/webhook-app';
import { BOUNCE_DOMAIN, bootBounceApp, ENCRYPTION_KEY } from '../../support/bounces/bounce-app';
import { arf, dsn } from '../../support/bounces/report-mail';
import { sendWithNodemailer, sendWithSmtplib, sendWithSwaks } from '../../support/bounces/smtp-clients';
import { itIfSwaks } from '../../support/swaks';
import { itIfPython } from '../../support/python';

const itWithPython = itIfPython("bounce-reports: the tests that speak through Python's smtplib");

const itWithSwaks = itIfSwaks('A bounce report sent by swaks');

const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const entries = (message: any) => message.statusHistory.map(({ at: _, ...entry }: { at: string }) => entry);
const USER_UNKNOWN = (to: string) =>
  `550 5.1.1 <${to}>: Recipient address rejected: User unknown in virtual mailbox table`;

describe('bounce reports at the inbound listener', () => {
  const app = bootBounceApp();
  const { receiver, sink, t } = app;

  it(
    'bounces the message on a hard bounce (nodemailer), names the recipient and diagnostic, suppresses the address and fires the webhook',
    async () => {
      const userId = newUserId('hard-bounce');
      const path = newPath('hard-bounce');
      const [kept, gone] = [address('kept'), address('gone')];
      const { id, verp } = await app.deliver(userId, {
        to: [kept, gone],
        webhook: { url: receiver.url(path), status: ['bounced'] },
      });

      const outcome = await sendWithNodemailer(
        app.inboundPort(),
        verp.get(gone)!,
        dsn(verp.get(gone)!, id, [
          { recipient: gone, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(gone) },
        ]),
      );
      expect(outcome).toMatchObject({ accepted: true });

      // The listener answers 250 once the report is committed.
      const message = await app.get(userId, id);
      expect(message.status).toBe('bounced');
      expect(entries(message).at(-1)).toEqual({ status: 'bounced', detail: USER_UNKNOWN(gone), recipient: gone });
      expect(
        entries(message)
          .slice(0, 3)
          .every((e: object) => !('recipient' in e)),
      ).toBe(true);
      expect(await app.suppressions(userId)).toEqual([
        expect.objectContaining({ email: gone, reason: 'hard_bounce', scope: 'all', messageId: id }),
      ]);

      await receiver.waitFor(() => receiver.on(path).length >= 1, 'the message.bounced event');
      const [{ event }] = distinctEvents(receiver.on(path));
      expect(event).toMatchObject({
        type: 'message.bounced',
        data: { sequence: 4, message: { id, status: 'bounced' } },
      });
      expect(event.data.message.statusHistory.at(-1)).toMatchObject({
        status: 'bounced',
        recipient: gone,
        detail: USER_UNKNOWN(gone),
      });

      const metrics = (await t.http.get('/metrics').expect(200)).text;
      expect(metrics).toContain(`mailroom_bounces_total{user_id="${userId}",kind="hard"} 1`);
    },
    TIMEOUT,
  );

  itWithSwaks(
    'bounces the message on a soft bounce (swaks) and keeps the address',
    async () => {
      const userId = newUserId('soft-bounce');
      const to = address('full');
      const { id, verp } = await app.deliver(userId, { to: [to] });
      const diagnostic = '552 5.2.2 <' + to + '>: Mailbox full';

      const { exitCode, transcript } = await sendWithSwaks(
        app.inboundPort(),
        verp.get(to)!,
        dsn(verp.get(to)!, id, [{ recipient: to, action: 'failed', status: '5.2.2', diagnostic }]),
      );
      expect(exitCode).toBe(0);
      // The reply to the end of DATA.
      expect(transcript).toMatch(/-> \.\n\s*<- +250 /);

      const message = await app.get(userId, id);
      expect(message.status).toBe('bounced');
      expect(entries(message).at(-1)).toEqual({ status: 'bounced', detail: diagnostic, recipient: to });
      expect(await app.suppressions(userId)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'bounces the message when the relay gave up after retrying, says so in the history, and keeps the address',
    async () => {
      const userId = newUserId('gave-up');
      const to = address('unreachable');
      const { id, verp } = await app.deliver(userId, { to: [to] });
      const diagnostic = 'connect to mx.recipient.example[192.0.2.9]:25: Connection timed out';

      await sendWithNodemailer(
        app.inboundPort(),
        verp.get(to)!,
        dsn(verp.get(to)!, id, [{ recipient: to, action: 'failed', status: '4.4.1', diagnostic }]),
      );

      const message = await app.get(userId, id);
      expect(message.status).toBe('bounced');
      expect(entries(message).at(-1)).toEqual({
        status: 'bounced',
        detail: `the relay gave up after retrying: ${diagnostic}`,
        recipient: to,
      });
      expect(await app.suppressions(userId)).toEqual([]);
    },
    TIMEOUT,
  );

  itWithPython(
    'records a delay notice (Python smtplib) as a history entry only: no status change, no webhook',
    async () => {
      const userId = newUserId('delay');
      const path = newPath('delay');
      const to = address('slow');
      const { id, verp } = await app.deliver(userId, { to: [to], webhook: { url: receiver.url(path), status: [] } });
      const diagnostic = '451 4.4.7 Message delayed: connection to mx.recipient.example timed out';

      expect(
        await sendWithSmtplib(
          app.inboundPort(),
          verp.get(to)!,
          dsn(verp.get(to)!, id, [{ recipient: to, action: 'delayed', status: '4.4.7', diagnostic }]),
        ),
      ).toEqual({ accepted: true });
      const delayed = await app.get(userId, id);
      expect(delayed.status).toBe('sent');
      expect(entries(delayed).map((e: { status: string }) => e.status)).toEqual(['queued', 'sending', 'sent', 'sent']);
      expect(entries(delayed).at(-1)).toEqual({
        status: 'sent',
        detail: `delivery delayed: ${diagnostic}`,
        recipient: to,
      });

      // The later signal: a hard bounce's webhook is the fourth change, so the notice was none.
      await sendWithSmtplib(
        app.inboundPort(),
        verp.get(to)!,
        dsn(verp.get(to)!, id, [{ recipient: to, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(to) }]),
      );
      await receiver.waitFor(
        () => distinctEvents(receiver.on(path)).some(({ event }) => event.type === 'message.bounced'),
        'the message.bounced event',
      );
      const events = distinctEvents(receiver.on(path)).map(({ event }) => [event.type, event.data.sequence]);
      expect(events).toEqual([
        ['message.queued', 1],
        ['message.sending', 2],
        ['message.sent', 3],
        ['message.bounced', 4],
      ]);
      // The event shows the message as it was: the notice before the bounce included.
      const bounced = distinctEvents(receiver.on(path)).at(-1)!.event;
      expect(bounced.data.message.statusHistory.map((e: { status: string }) => e.status)).toEqual([
        'queued',
        'sending',
        'sent',
        'sent',
        'bounced',
      ]);
    },
    TIMEOUT,
  );

  it(
    "reads a multi-recipient DSN for the token's recipient alone: its delay is noted, the other recipient's failure changes nothing",
    async () => {
      const userId = newUserId('multi');
      const [first, second] = [address('first'), address('second')];
      const { id, verp } = await app.deliver(userId, { to: [first], cc: [second] });
      const rcpt = verp.get(first)!;
      const report = dsn(rcpt, id, [
        { recipient: second, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(second) },
        { recipient: first, action: 'delayed', status: '4.2.0', diagnostic: '452 4.2.0 Try again later' },
      ]);
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, report)).toMatchObject({ accepted: true });

      const message = await app.get(userId, id);
      expect(message.status).toBe('sent');
      expect(entries(message).slice(3)).toEqual([
        { status: 'sent', detail: 'delivery delayed: 452 4.2.0 Try again later', recipient: first },
      ]);
      expect(await app.suppressions(userId)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "never changes another recipient of the message: a DSN naming one is not understood, an ARF (without Original-Rcpt-To) naming all is the token recipient's",
    async () => {
      const userId = newUserId('other-recipient');
      const [reader, victim, bystander] = [address('reader'), address('victim'), address('bystander')];
      const { id, verp } = await app.deliver(userId, { to: [reader, victim, bystander] });
      const rcpt = verp.get(reader)!;

      // The reader's own token, a bounce naming the victim: each copy has its own token, so it is no report of the reader's copy.
      await sendWithNodemailer(
        app.inboundPort(),
        rcpt,
        dsn(rcpt, id, [{ recipient: victim, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(victim) }]),
      );
      // An opt-out whose returned message is to all three: the reader's opt-out, no one else's.
      await sendWithNodemailer(app.inboundPort(), rcpt, arf(rcpt, id, reader, 'opt-out', [reader, victim, bystander]));

      const message = await app.get(userId, id);
      expect(entries(message).slice(3)).toEqual([
        { status: 'sent', detail: `unrecognized report: it names ${victim}, not this recipient`, recipient: reader },
        { status: 'complained', detail: 'feedback report: opt-out (ExampleFBL/1.0)', recipient: reader },
      ]);
      expect((await app.suppressions(userId)).map(({ email, reason }) => [email, reason])).toEqual([
        [reader, 'complaint'],
      ]);
    },
    TIMEOUT,
  );

  it(
    "records several reports, none about the token's recipient, as unrecognized, and nothing else",
    async () => {
      const userId = newUserId('strangers');
      const [to, stranger, other] = [address('to'), address('stranger'), address('other')];
      const { id, verp } = await app.deliver(userId, { to: [to] });
      const rcpt = verp.get(to)!;
      const report = dsn(rcpt, id, [
        { recipient: stranger, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(stranger) },
        { recipient: other, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(other) },
      ]);
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, report)).toMatchObject({ accepted: true });

      const message = await app.get(userId, id);
      expect(message.status).toBe('sent');
      expect(entries(message).at(-1)).toEqual({
        status: 'sent',
        detail: `unrecognized report: it names ${stranger}, ${other}, not this recipient`,
        recipient: to,
      });
      expect(await app.suppressions(userId)).toEqual([]);
      const listed = (
        await t.http.get('/user/messages').query({ statuses: 'bounced,complained' }).set(bearer(userId)).expect(200)
      ).body;
      expect(listed).toMatchObject({ total: 0, statuses: 'bounced,complained' });
    },
    TIMEOUT,
  );

  it(
    'answers 451 to a report about a message still sending and stores nothing; the same report once it is sent bounces it',
    async () => {
      const userId = newUserId('early');
      const to = address('early');
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      // The relay holds its reply to DATA: the message stays sending.
      sink.reply = async (): Promise<SinkReply> => {
        await held;
        return 'accept';
      };
      const { id } = await app.send(userId, { to: [to] });
      const rcpt = `bounces+${new RecipientTokens(ENCRYPTION_KEY, 'verp').encode({ messageId: id, recipient: 0 })}@${BOUNCE_DOMAIN}`;
      const report = dsn(rcpt, id, [
        { recipient: to, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(to) },
      ]);
      try {
        await sink.waitUntil(() => sink.attemptsFor(id) === 1);
        expect(await sendWithNodemailer(app.inboundPort(), rcpt, report)).toMatchObject({ accepted: false, code: 451 });
        const [stored] = await t.db.query(
          `SELECT (SELECT count(*) FROM applied_reports WHERE message_id = $1)::int AS reports, (SELECT array_agg(status ORDER BY at) FROM message_status_events WHERE message_id = $1) AS history`,
          [id],
        );
        expect(stored).toEqual({ reports: 0, history: ['queued', 'sending'] });
      } finally {
        release();
      }
      await waitForStatus(t.http, userId, id, 'sent');
      expect(await sendWithNodemailer(app.inboundPort(), rcpt, report)).toMatchObject({ accepted: true });
      const message = await app.get(userId, id);
      expect(entries(message).map((e: { status: string }) => e.status)).toEqual([
        'queued',
        'sending',
        'sent',
        'bounced',
      ]);
      expect(entries(message).at(-1)).toEqual({ status: 'bounced', detail: USER_UNKNOWN(to), recipient: to });
      expect(await app.suppressions(userId)).toEqual([expect.objectContaining({ email: to, reason: 'hard_bounce' })]);
    },
    TIMEOUT,
  );
});
