// VERP (docs/delivery-and-deliverability.md): with BOUNCE_DOMAIN set, each recipient gets its own SMTP transaction of the same
// message, from bounces+<token>@BOUNCE_DOMAIN, the token naming that message and recipient.
import { randomUUID } from 'node:crypto';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { SmtpSink } from '../../support/smtp-sink';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { sendBody } from '../../support/factories';
import { TIMEOUT } from '../../support/webhooks/webhook-app';
import { BOUNCE_DOMAIN, bootBounceApp, ENCRYPTION_KEY } from '../../support/bounces/bounce-app';

const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const VERP = new RegExp(`^bounces\\+([0-9a-f]{54})@${BOUNCE_DOMAIN.replace(/\./g, '\\.')}$`);

describe('VERP envelope senders (BOUNCE_DOMAIN set)', () => {
  const { t, sink, send } = bootBounceApp();
  const tokens = new RecipientTokens(ENCRYPTION_KEY, 'verp');

  it(
    'hands each recipient (to, cc, bcc) its own transaction of the same message, from a sender naming that recipient',
    async () => {
      const userId = newUserId('verp');
      const [to1, to2, cc, bcc] = [address('to1'), address('to2'), address('cc'), address('bcc')];
      const accepted = await send(userId, { to: [to1, `Ada <${to2}>`], cc: [cc], bcc: [bcc] });
      await waitForStatus(t.http, userId, accepted.id, 'sent');

      const mails = sink.acceptedFor(accepted.id);
      expect(mails.map((m) => m.to)).toHaveLength(4);
      const byRecipient = new Map(mails.map((m) => [m.to[0], m]));
      [to1, to2, cc, bcc].forEach((recipient, position) => {
        const mail = byRecipient.get(recipient)!;
        expect(mail.to).toEqual([recipient]);
        const token = VERP.exec(mail.from)?.[1];
        expect(token).toBeDefined();
        expect(tokens.decode(token!)).toEqual({ messageId: accepted.id, recipient: position });
      });
      // The same message in every transaction (one Message-ID, the same headers and body), and no Bcc header in any.
      expect(new Set(mails.map((m) => m.parsed.messageId)).size).toBe(1);
      expect(
        new Set(
          mails.map((m) => JSON.stringify([m.parsed.to, m.parsed.cc, m.parsed.subject, m.parsed.html, m.parsed.text])),
        ).size,
      ).toBe(1);
      for (const mail of mails) expect(mail.raw.toString()).not.toContain(bcc);
    },
    TIMEOUT,
  );

  it(
    'numbers recipients as stored when a suppressed one is skipped: the others keep their positions',
    async () => {
      const userId = newUserId('verp-suppressed');
      const [to, cc, bcc] = [address('to'), address('cc'), address('bcc')];
      await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: cc }).expect(201);
      const accepted = await send(userId, { to: [to], cc: [cc], bcc: [bcc] });
      await waitForStatus(t.http, userId, accepted.id, 'sent');
      const positions = sink
        .acceptedFor(accepted.id)
        .map((m) => [m.to[0], tokens.decode(VERP.exec(m.from)![1])!.recipient]);
      expect(positions.sort()).toEqual(
        [
          [bcc, 2],
          [to, 0],
        ].sort(),
      );
    },
    TIMEOUT,
  );

  it(
    'keeps a refused recipient as today: the message is sent, the refused one named in its history',
    async () => {
      const userId = newUserId('verp-refused');
      const [kept, refused] = [address('kept'), address('refused')];
      sink.refuseRecipients.add(refused.toLowerCase());
      const accepted = await send(userId, { to: [kept, refused] });
      const message = await waitForStatus(t.http, userId, accepted.id, 'sent');
      // The message's entry, then the refused recipient's own (docs/delivery-and-deliverability.md#statuses "Recipients").
      const [entry, named] = message.statusHistory.slice(-2);
      // A copy's refusal is that copy's reply, so it names the relay that gave it (#relays-and-failover).
      const relay = `(relay 127.0.0.1:${new URL(t.config.delivery.smtpUrl!).port})`;
      expect(entry.detail).toContain(`(refused: ${refused} (550 5.1.1 No such user here ${relay}))`);
      expect(named).toMatchObject({ recipient: refused.toLowerCase(), detail: `550 5.1.1 No such user here ${relay}` });
      expect(sink.acceptedFor(accepted.id).map((m) => m.to)).toEqual([[kept]]);
    },
    TIMEOUT,
  );

  it(
    'fails a message whose every recipient is refused, as one refused transaction would',
    async () => {
      const userId = newUserId('verp-all-refused');
      const refused = [address('gone1'), address('gone2')];
      for (const r of refused) sink.refuseRecipients.add(r.toLowerCase());
      const accepted = await send(userId, { to: refused });
      const message = await waitForStatus(t.http, userId, accepted.id, 'failed');
      expect(message.statusHistory.at(-1).detail).toContain('No such user here');
    },
    TIMEOUT,
  );
});

describe('without BOUNCE_DOMAIN', () => {
  const sink = new SmtpSink();
  const t = {} as TestApp;
  beforeAll(async () => {
    const port = await sink.start();
    Object.assign(t, await bootTestApp({ ROLE: 'all', SMTP_URL: sink.url(port) }, { isolatedDatabase: true }));
  }, TIMEOUT);
  afterAll(async () => {
    await t.close?.();
    await sink.stop();
  }, TIMEOUT);

  it(
    'sends one transaction from the From address to every recipient, as before',
    async () => {
      const userId = newUserId('no-verp');
      const [to, cc] = [address('to'), address('cc')];
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ sender: 'billing@example.com', to: [to], cc: [cc] }))
        .expect(201);
      await waitForStatus(t.http, userId, body.id, 'sent');
      const mails = sink.acceptedFor(body.id);
      expect(mails.map((m) => ({ from: m.from, to: m.to.sort() }))).toEqual([
        { from: 'billing@example.com', to: [to, cc].sort() },
      ]);
    },
    TIMEOUT,
  );
});
