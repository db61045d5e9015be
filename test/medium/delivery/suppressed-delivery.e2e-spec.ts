// Delivery against the suppression list (docs/delivery-and-deliverability.md#statuses, docs/delivery-and-deliverability.md): suppressed recipients are skipped and named
// in the history; a message whose every recipient (to, cc and bcc) is suppressed ends `suppressed`
// without touching SMTP, with its webhook; removing the entry lets mail through again.
import { randomUUID } from 'node:crypto';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { distinctEvents } from '../../support/webhooks/signatures';
import { bootWebhookApp, newPath, TIMEOUT, TO_LOOPBACK } from '../../support/webhooks/webhook-app';

interface HistoryEntry {
  status: string;
  detail: string | null;
}
const history = (message: { statusHistory: HistoryEntry[] }) =>
  message.statusHistory.map(({ status, detail }) => ({ status, detail }));

describe('delivery to a suppression list (ROLE=all, SMTP sink, webhook receiver)', () => {
  const { receiver, sink, t, send } = bootWebhookApp({ ...TO_LOOPBACK, WORKER_CONCURRENCY: '2' });

  const suppress = (userId: string, email: string) =>
    t.http.post('/user/suppressions').set(bearer(userId)).send({ email }).expect(201);
  /** Addresses of their own, so the sink's logs tell whether this message was ever begun. */
  const address = (label: string) => `${label}-${randomUUID()}@example.com`;

  it(
    'ends a message whose every recipient is suppressed as suppressed, with its history entry and webhook, and nothing at the sink',
    async () => {
      const userId = newUserId('all-suppressed');
      const path = newPath('all-suppressed');
      const sender = address('sender');
      const [to, cc, bcc] = [address('to'), address('cc'), address('bcc')];
      for (const email of [to, cc, bcc]) await suppress(userId, email.toUpperCase());

      const accepted = await send(userId, {
        sender,
        to: [`Ada <${to}>`],
        cc: [cc],
        bcc: [bcc],
        webhook: { url: receiver.url(path), status: [] },
      });
      const message = await waitForStatus(t.http, userId, accepted.id, 'suppressed');

      expect(history(message)).toEqual([
        { status: 'queued', detail: null },
        {
          status: 'suppressed',
          detail: `every recipient is suppressed: ${[to, cc, bcc]
            .map((a) => a.toLowerCase())
            .sort()
            .join(', ')}`,
        },
      ]);
      // suppressed is final and was committed in place of the claim: no attempt can follow it.
      expect(sink.mailFrom).not.toContain(sender);
      expect(sink.acceptedFor(accepted.id)).toEqual([]);
      await receiver.waitFor(() => distinctEvents(receiver.on(path)).length >= 2, 'two events');
      expect(
        distinctEvents(receiver.on(path)).map(({ event }) => [
          event.type,
          event.data.sequence,
          event.data.message.status,
        ]),
      ).toEqual([
        ['message.queued', 1, 'queued'],
        ['message.suppressed', 2, 'suppressed'],
      ]);
      const listed = (
        await t.http.get('/user/messages').query({ statuses: 'suppressed' }).set(bearer(userId)).expect(200)
      ).body;
      expect(listed).toMatchObject({
        statuses: 'suppressed',
        total: 1,
        messages: [expect.objectContaining({ id: accepted.id, status: 'suppressed' })],
      });
    },
    TIMEOUT,
  );

  it(
    'sends a partly suppressed message to the others only (envelope and headers), naming the skipped in the history',
    async () => {
      const userId = newUserId('partly-suppressed');
      const [toKept, toSkipped, ccSkipped, bccKept] = [
        address('to-kept'),
        address('to-skipped'),
        address('cc-skipped'),
        address('bcc-kept'),
      ];
      await suppress(userId, toSkipped);
      await suppress(userId, ccSkipped);

      const accepted = await send(userId, { to: [toKept, toSkipped], cc: [ccSkipped], bcc: [bccKept] });
      const message = await waitForStatus(t.http, userId, accepted.id, 'sent');

      const [mail] = sink.acceptedFor(accepted.id);
      expect(mail.to.sort()).toEqual([toKept, bccKept].sort());
      expect(mail.parsed.headers.get('cc')).toBeUndefined();
      expect(mail.raw.toString()).not.toContain(toSkipped);
      expect(history(message).slice(0, 2)).toEqual([
        { status: 'queued', detail: null },
        { status: 'sending', detail: `skipped suppressed recipients: ${[toSkipped, ccSkipped].sort().join(', ')}` },
      ]);
      // The message as stored still names every recipient it was sent with.
      expect(message).toMatchObject({ to: [toKept, toSkipped], cc: [ccSkipped], bcc: [bccKept] });
    },
    TIMEOUT,
  );

  it(
    "leaves other users' lists out of it, and delivers to an address again once its entry is removed",
    async () => {
      const userId = newUserId('unsuppressed');
      const email = address('again');
      await suppress(newUserId('someone-else'), email);
      const another = await send(userId, { to: [email] });
      await waitForStatus(t.http, userId, another.id, 'sent');
      await suppress(userId, email);
      const first = await send(userId, { to: [email] });
      await waitForStatus(t.http, userId, first.id, 'suppressed');

      await t.http
        .delete(`/user/suppressions/${encodeURIComponent(email)}`)
        .set(bearer(userId))
        .expect(204);
      const second = await send(userId, { to: [email] });
      await waitForStatus(t.http, userId, second.id, 'sent');

      expect(sink.acceptedFor(another.id).map((mail) => mail.to)).toEqual([[email]]);
      expect(sink.acceptedFor(first.id)).toEqual([]);
      expect(sink.acceptedFor(second.id).map((mail) => mail.to)).toEqual([[email]]);
    },
    TIMEOUT,
  );
});
