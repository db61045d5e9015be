// Suppression scope (docs/delivery-and-deliverability.md): an unsubscribe stops bulk mail only (a message with a
// bulkSendingId), so a reader who leaves a newsletter still gets the password reset; hard bounces,
// complaints and manual entries stop everything, and a manual entry may ask for bulk only. One
// entry per address, never narrowed: a later hard bounce or complaint widens an unsubscribe.
// Real parts: the unsubscribe link the sink received, the inbound listener for reports.
import { randomUUID } from 'node:crypto';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { bootBounceApp } from '../../support/bounces/bounce-app';
import { arf, dsn } from '../../support/bounces/report-mail';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { TIMEOUT } from '../../support/webhooks/webhook-app';

const PUBLIC_URL = 'https://mail.example.test';
const address = (label: string) => `${label}-${randomUUID()}@example.com`;
const USER_UNKNOWN = (to: string) => `550 5.1.1 <${to}>: Recipient address rejected: User unknown`;

describe('suppression scope at delivery (ROLE=all, SMTP sink, inbound listener)', () => {
  const app = bootBounceApp({ PUBLIC_URL });
  const { sink, t, send } = app;

  const newsletter = (to: string) => ({ to: [to], subject: 'This week', bulkSendingId: 'weekly' });
  const passwordReset = (to: string) => ({ to: [to], subject: 'Reset your password' });
  const addManual = (userId: string, body: object) =>
    t.http.post('/user/suppressions').set(bearer(userId)).send(body).expect(201);

  /** Delivers a newsletter to `reader` and clicks its one-click link; the unsubscribe path. */
  async function unsubscribeFromNewsletter(userId: string, reader: string): Promise<{ id: string; link: string }> {
    const { id } = await app.deliver(userId, newsletter(reader));
    const [copy] = sink.acceptedFor(id);
    const url = (copy.parsed.headers.get('list') as unknown as { unsubscribe: { url: string } }).unsubscribe.url;
    const link = url.slice(PUBLIC_URL.length);
    await t.http.post(link).type('application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click').expect(200);
    return { id, link };
  }

  /** Sends a password reset and a newsletter to `reader`; the statuses they end in. */
  async function resetAndNewsletter(userId: string, reader: string, expected: { reset: string; newsletter: string }) {
    const reset = await send(userId, passwordReset(reader));
    const news = await send(userId, newsletter(reader));
    await waitForStatus(t.http, userId, reset.id, expected.reset);
    await waitForStatus(t.http, userId, news.id, expected.newsletter);
    return { reset: sink.acceptedFor(reset.id), newsletter: sink.acceptedFor(news.id) };
  }

  it(
    'delivers a password reset to a reader who unsubscribed from a newsletter, and suppresses the next newsletter',
    async () => {
      const userId = newUserId('scope-unsubscribe');
      const reader = address('reader');
      const { id } = await unsubscribeFromNewsletter(userId, reader);

      expect(await app.suppressions(userId)).toEqual([
        expect.objectContaining({ email: reader, reason: 'unsubscribe', scope: 'bulk', messageId: id }),
      ]);
      const received = await resetAndNewsletter(userId, reader, { reset: 'sent', newsletter: 'suppressed' });

      expect(received.reset.map((mail) => [mail.to, mail.parsed.subject])).toEqual([[[reader], 'Reset your password']]);
      expect(received.newsletter).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'treats a manual entry with scope bulk the same way, and a manual entry of default scope stops both',
    async () => {
      const userId = newUserId('scope-manual');
      const [bulkOnly, everything] = [address('bulk-only'), address('everything')];
      await addManual(userId, { email: bulkOnly, scope: 'bulk' });
      await addManual(userId, { email: everything });

      const toBulkOnly = await resetAndNewsletter(userId, bulkOnly, { reset: 'sent', newsletter: 'suppressed' });
      const toEverything = await resetAndNewsletter(userId, everything, {
        reset: 'suppressed',
        newsletter: 'suppressed',
      });

      expect(toBulkOnly.reset.map((mail) => mail.to)).toEqual([[bulkOnly]]);
      expect(toBulkOnly.newsletter).toEqual([]);
      expect(toEverything).toEqual({ reset: [], newsletter: [] });
    },
    TIMEOUT,
  );

  it(
    'skips a bulk-only address among the recipients of a newsletter, and keeps it among those of other mail',
    async () => {
      const userId = newUserId('scope-partly');
      const [kept, leaving] = [address('kept'), address('leaving')];
      await unsubscribeFromNewsletter(userId, leaving);

      const news = await app.deliver(userId, { to: [kept, leaving], bulkSendingId: 'weekly' });
      const notice = await app.deliver(userId, { to: [kept, leaving], subject: 'Terms of service' });

      expect(sink.acceptedFor(news.id).map((mail) => mail.to)).toEqual([[kept]]);
      expect(
        sink
          .acceptedFor(notice.id)
          .map((mail) => mail.to)
          .sort(),
      ).toEqual([[kept], [leaving]].sort());
    },
    TIMEOUT,
  );

  it(
    'widens an unsubscribe to everything on a later hard bounce, which the unsubscribe page cannot undo',
    async () => {
      const userId = newUserId('scope-widened-bounce');
      const reader = address('reader');
      const { link } = await unsubscribeFromNewsletter(userId, reader);
      const reset = await app.deliver(userId, passwordReset(reader));
      const rcpt = reset.verp.get(reader)!;

      await sendWithNodemailer(
        app.inboundPort(),
        rcpt,
        dsn(rcpt, reset.id, [
          { recipient: reader, action: 'failed', status: '5.1.1', diagnostic: USER_UNKNOWN(reader) },
        ]),
      );

      expect(await app.suppressions(userId)).toEqual([
        expect.objectContaining({ email: reader, reason: 'hard_bounce', scope: 'all', messageId: reset.id }),
      ]);
      expect((await t.http.post(`${link}/resubscribe`).expect(200)).body).toEqual({ resubscribed: false });
      expect((await app.suppressions(userId)).map((s) => [s.reason, s.scope])).toEqual([['hard_bounce', 'all']]);
      const received = await resetAndNewsletter(userId, reader, { reset: 'suppressed', newsletter: 'suppressed' });
      expect(received).toEqual({ reset: [], newsletter: [] });
    },
    TIMEOUT,
  );

  it(
    'widens an unsubscribe to everything on a later complaint, and a later unsubscribe does not narrow it back',
    async () => {
      const userId = newUserId('scope-widened-complaint');
      const reader = address('reader');
      const { id, link } = await unsubscribeFromNewsletter(userId, reader);
      const rcpt = sink.acceptedFor(id)[0].from;

      await sendWithNodemailer(app.inboundPort(), rcpt, arf(rcpt, id, reader));
      await t.http.post(link).type('application/x-www-form-urlencoded').send('List-Unsubscribe=One-Click').expect(200);

      expect(await app.suppressions(userId)).toEqual([
        expect.objectContaining({ email: reader, reason: 'complaint', scope: 'all', messageId: id }),
      ]);
      const received = await resetAndNewsletter(userId, reader, { reset: 'suppressed', newsletter: 'suppressed' });
      expect(received).toEqual({ reset: [], newsletter: [] });
    },
    TIMEOUT,
  );
});
