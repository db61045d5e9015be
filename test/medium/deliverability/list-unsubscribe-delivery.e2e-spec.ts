// List-Unsubscribe on delivered mail (docs/delivery-and-deliverability.md, RFC 2369, RFC 8058), read back from a real SMTP
// sink with mailparser: bulk mail goes out as one transaction per recipient, each copy with the
// recipient's own link, and the link a recipient received is the one that unsubscribes them.
import { deliveringApp } from '../../support/delivering-app';
import { sendBody } from '../../support/factories';
import { ReceivedMail } from '../../support/smtp-sink';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { address, suppressionsOf, unsubscribeTokens } from '../../support/unsubscribe/unsubscribe-support';

const PUBLIC_URL = 'https://mail.example.test/mailroom';
const BOUNCE_DOMAIN = 'bounces.example.test';
const TIMEOUT = 60_000;

interface ListHeaders {
  unsubscribe?: { url?: string; mail?: string };
  'unsubscribe-post'?: { name?: string };
}
const listOf = (mail: ReceivedMail) => mail.parsed.headers.get('list') as ListHeaders | undefined;

describe('List-Unsubscribe on delivered mail (ROLE=all, SMTP sink)', () => {
  const { t, sink } = deliveringApp({ PUBLIC_URL, BOUNCE_DOMAIN, WORKER_CONCURRENCY: '2', DELIVERY_RETRY_DELAYS: '1' });

  const send = async (userId: string, fields: Record<string, unknown>): Promise<{ id: string }> =>
    (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields)).expect(201)).body;
  /** The copy whose envelope went to `recipient` alone. */
  const copyFor = (messageId: string, recipient: string) => {
    const copies = sink.acceptedFor(messageId).filter((mail) => mail.to.includes(recipient));
    expect(copies.map((mail) => mail.to)).toEqual([[recipient]]);
    return copies[0];
  };
  /** The recipient a link's token names, read with the app's key. */
  const named = (url: string) =>
    unsubscribeTokens(t.config.deliverability.encryptionKey).decode(url.slice(url.lastIndexOf('/') + 1));

  it(
    'sends a bulk message as one copy per recipient, each with a link and an address naming that recipient, and one-click',
    async () => {
      const userId = newUserId('list-unsub');
      const [to1, to2, cc, bcc] = [address('to1'), address('to2'), address('cc'), address('bcc')];
      const { id } = await send(userId, { to: [to1, `Grace <${to2}>`], cc: [cc], bcc: [bcc], bulkSendingId: 'spring' });
      const message = await waitForStatus(t.http, userId, id, 'sent');

      expect(sink.acceptedFor(id)).toHaveLength(4);
      for (const [position, recipient] of [to1, to2, cc, bcc].entries()) {
        const mail = copyFor(id, recipient);
        const list = listOf(mail)!;
        const token = list.unsubscribe!.url!.slice(`${PUBLIC_URL}/unsubscribe/`.length);
        expect(list.unsubscribe).toEqual({
          url: `${PUBLIC_URL}/unsubscribe/${token}`,
          mail: `unsubscribe+${token}@${BOUNCE_DOMAIN}`,
        });
        expect(named(list.unsubscribe!.url!)).toEqual({ messageId: id, recipient: position });
        expect(list['unsubscribe-post']).toEqual({ name: 'List-Unsubscribe=One-Click' });
        // Every copy shows the message's To and Cc; none shows the Bcc.
        const addresses = (field: 'to' | 'cc') =>
          [mail.parsed[field]].flat().flatMap((header) => header!.value.map((a) => a.address));
        expect(addresses('to')).toEqual([to1, to2]);
        expect(addresses('cc')).toEqual([cc]);
        expect(mail.raw.toString()).not.toContain(bcc);
      }
      expect(message.statusHistory.at(-1).detail).toMatch(/^4 of 4 copies accepted, one per recipient: 250 /);
    },
    TIMEOUT,
  );

  it(
    'sends other mail without List-Unsubscribe (one copy per recipient all the same: BOUNCE_DOMAIN set means VERP)',
    async () => {
      const userId = newUserId('no-list-unsub');
      const [to, cc, bcc] = [address('to'), address('cc'), address('bcc')];
      const { id } = await send(userId, { to: [to], cc: [cc], bcc: [bcc] });
      await waitForStatus(t.http, userId, id, 'sent');

      const mails = sink.acceptedFor(id);
      expect(mails.map((mail) => mail.to).sort()).toEqual([[to], [cc], [bcc]].sort());
      for (const mail of mails) {
        expect(listOf(mail)).toBeUndefined();
        expect(mail.raw.toString()).not.toMatch(/^List-Unsubscribe/im);
      }
    },
    TIMEOUT,
  );

  it(
    "unsubscribes the recipient whose link was POSTed as RFC 8058 says, on the owner's list, and later mail to them is suppressed",
    async () => {
      const userId = newUserId('one-click');
      const [kept, leaving] = [address('kept'), address('leaving')];
      const { id } = await send(userId, { to: [kept, leaving], bulkSendingId: 'spring' });
      await waitForStatus(t.http, userId, id, 'sent');
      const url = listOf(copyFor(id, leaving))!.unsubscribe!.url!;

      await t.http
        .post(url.slice(PUBLIC_URL.length))
        .type('application/x-www-form-urlencoded')
        .send('List-Unsubscribe=One-Click')
        .expect(200);

      expect(await suppressionsOf(t.http, userId)).toEqual([
        { email: leaving, reason: 'unsubscribe', scope: 'bulk', messageId: id, createdAt: expect.any(String) },
      ]);
      const alone = await send(userId, { to: [leaving], bulkSendingId: 'spring' });
      await waitForStatus(t.http, userId, alone.id, 'suppressed');
      const both = await send(userId, { to: [kept, leaving], bulkSendingId: 'spring' });
      const sent = await waitForStatus(t.http, userId, both.id, 'sent');
      expect(sink.acceptedFor(both.id).map((mail) => mail.to)).toEqual([[kept]]);
      expect(sent.statusHistory.map((e: { detail: string | null }) => e.detail)).toContain(
        `skipped suppressed recipients: ${leaving}`,
      );
    },
    TIMEOUT,
  );

  it(
    "keeps each recipient's position in its token when suppressed recipients before it are skipped",
    async () => {
      const userId = newUserId('positions');
      const [skipped, delivered] = [address('skipped'), address('delivered')];
      await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: skipped }).expect(201);
      const { id } = await send(userId, { to: [skipped], cc: [delivered], bulkSendingId: 'spring' });
      await waitForStatus(t.http, userId, id, 'sent');

      const url = listOf(copyFor(id, delivered))!.unsubscribe!.url!;
      expect(named(url)).toEqual({ messageId: id, recipient: 1 });
      expect(sink.acceptedFor(id)).toHaveLength(1);
    },
    TIMEOUT,
  );

  it(
    'names a copy the server refused in the history of a message others received, and retries none',
    async () => {
      const userId = newUserId('refused-copy');
      const [accepted, refused] = [address('accepted'), address('refused')];
      sink.refuseRecipients.add(refused);
      const { id } = await send(userId, { to: [accepted, refused], bulkSendingId: 'spring' });
      const message = await waitForStatus(t.http, userId, id, 'sent');

      // The message's entry, then one naming the refused recipient (docs/delivery-and-deliverability.md#statuses "Recipients").
      const [entry, named] = message.statusHistory.slice(-2);
      expect(entry.detail).toMatch(
        new RegExp(`^1 of 2 copies accepted, one per recipient: 250 .* \\(refused: ${refused} \\(.*550.*\\)\\)$`),
      );
      expect(named).toMatchObject({ status: 'failed', recipient: refused, detail: expect.stringContaining('550') });
      expect(sink.acceptedFor(id).map((mail) => mail.to)).toEqual([[accepted]]);
    },
    TIMEOUT,
  );

  it(
    'defers a bulk message whose every copy was refused for now, and sends each copy once on the retry',
    async () => {
      const userId = newUserId('all-deferred');
      const [first, second] = [address('first'), address('second')];
      const subject = `Deferred ${first}`;
      // The first attempt's two copies are refused for now; the retry's two accepted.
      sink.reply = (mail, attempt) =>
        mail.subject === subject && attempt <= 2 ? { code: 451, message: '4.3.0 Try again later' } : 'accept';
      const { id } = await send(userId, { to: [first, second], bulkSendingId: 'spring', subject });
      const message = await waitForStatus(t.http, userId, id, 'sent');

      expect(message.statusHistory.map((e: { status: string }) => e.status)).toEqual([
        'queued',
        'sending',
        'deferred',
        'sending',
        'sent',
      ]);
      expect(
        sink
          .acceptedFor(id)
          .map((mail) => mail.to)
          .sort(),
      ).toEqual([[first], [second]].sort());
    },
    TIMEOUT,
  );

  it(
    'fails a bulk message whose every copy was refused for good',
    async () => {
      const userId = newUserId('all-refused');
      const [first, second] = [address('first'), address('second')];
      sink.refuseRecipients.add(first).add(second);
      const { id } = await send(userId, { to: [first, second], bulkSendingId: 'spring' });
      const message = await waitForStatus(t.http, userId, id, 'failed');

      expect(message.statusHistory.at(-1).detail).toMatch(/550/);
      expect(sink.acceptedFor(id)).toEqual([]);
    },
    TIMEOUT,
  );
});
