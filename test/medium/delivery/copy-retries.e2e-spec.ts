// Retries of mail sent one copy per recipient (BOUNCE_DOMAIN set: VERP), against a real SMTP sink
// that greylists a recipient (451 at RCPT TO): the retry sends the copies refused for now and no
// other, the job carrying which, and the history says how far each attempt got.
import { randomUUID } from 'node:crypto';
import { RecipientTokens } from '../../../src/messages/recipient-token';
import { deliveringApp } from '../../support/delivering-app';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const TIMEOUT = 60_000;
const address = (label: string) => `${label}-${randomUUID()}@example.com`;
type History = { status: string; detail: string | null; recipient?: string }[];
/** The message's own entries, without those naming one recipient (docs/delivery-and-deliverability.md#statuses "Recipients"). */
const own = (history: History) => history.filter((e) => e.recipient === undefined);

describe('copy retries (one SMTP transaction per recipient)', () => {
  const { t, sink } = deliveringApp({ BOUNCE_DOMAIN: 'bounces.example.test', DELIVERY_RETRY_DELAYS: '1' });

  const send = async (userId: string, fields: Record<string, unknown>): Promise<{ id: string }> =>
    (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(fields)).expect(201)).body;
  /** The recipient positions of every MAIL FROM the sink saw for the message, read from the VERP senders. */
  const transactionsFor = (messageId: string): number[] => {
    const tokens = new RecipientTokens(t.config.deliverability.encryptionKey, 'verp');
    return sink.mailFrom
      .map((from) => tokens.decode(from.slice('bounces+'.length, from.indexOf('@'))))
      .filter((ref) => ref?.messageId === messageId)
      .map((ref) => ref!.recipient)
      .sort();
  };
  const jobData = async (messageId: string): Promise<unknown[]> =>
    (
      await t.db.query(`SELECT data FROM pgboss.job WHERE data->>'messageId' = $1 ORDER BY created_on`, [messageId])
    ).map((row: { data: unknown }) => row.data);

  it(
    'retries only the greylisted copy: each recipient gets one copy, and the message goes sent by way of deferred',
    async () => {
      const userId = newUserId('greylisted-copy');
      const [to1, to2, cc] = [address('to1'), address('to2'), address('cc')];
      sink.greylist.set(to2, 1);
      const { id } = await send(userId, { to: [to1, to2], cc: [cc] });
      const message = await waitForStatus(t.http, userId, id, 'sent');

      expect(
        sink
          .acceptedFor(id)
          .map((mail) => mail.to)
          .sort(),
      ).toEqual([[to1], [to2], [cc]].sort());
      // Not even begun again for the recipients that had their copy: to2 (position 1) alone twice.
      expect(transactionsFor(id)).toEqual([0, 1, 1, 2]);
      const history = own(message.statusHistory);
      expect(history.map((e) => e.status)).toEqual(['queued', 'sending', 'deferred', 'sending', 'sent']);
      expect(history[2].detail).toMatch(
        new RegExp(
          `^2 of 3 copies accepted, one per recipient: 250 .* \\(pending: ${to2} \\(.*451 4\\.7\\.1 Greylisted.*\\)\\)$`,
        ),
      );
      expect(history[4].detail).toMatch(/^1 of the 1 pending copies accepted \(3 in all\), one per recipient: 250 /);
      expect(await jobData(id)).toEqual([
        { messageId: id, attempt: 1 },
        { messageId: id, attempt: 2, copies: { pending: [1], accepted: 2 } },
      ]);
    },
    TIMEOUT,
  );

  it(
    'ends sent when a copy is still refused for now at the last attempt, naming it refused, and never retries a copy refused for good',
    async () => {
      const userId = newUserId('greylisted-for-ever');
      const [kept, late, gone] = [address('kept'), address('late'), address('gone')];
      sink.greylist.set(late, 2);
      sink.refuseRecipients.add(gone);
      const { id } = await send(userId, { to: [kept], cc: [late], bcc: [gone], bulkSendingId: 'spring' });
      const message = await waitForStatus(t.http, userId, id, 'sent');

      expect(sink.acceptedFor(id).map((mail) => mail.to)).toEqual([[kept]]);
      expect(transactionsFor(id)).toEqual([0, 1, 1, 2]);
      const history = own(message.statusHistory);
      expect(history.map((e) => e.status)).toEqual(['queued', 'sending', 'deferred', 'sending', 'sent']);
      // The refused recipients are named, each once and in its own fate: gone at the first attempt, late when it
      // gave up (the entry before that attempt's sent).
      const named = (message.statusHistory as History).map((e) => [e.status, e.recipient]);
      expect(named.filter(([, recipient]) => recipient)).toEqual([
        ['failed', gone],
        ['failed', late],
      ]);
      expect(named.findIndex(([, recipient]) => recipient === gone)).toBe(3);
      expect(history[2].detail).toContain(`(pending: ${late} (`);
      expect(history[2].detail).toMatch(
        new RegExp(`\\(refused: ${gone} \\(.*550 5\\.1\\.1 No such user here \\(relay 127\\.0\\.0\\.1:\\d+\\)\\)\\)$`),
      );
      expect(history[4].detail).toMatch(
        new RegExp(
          `^0 of the 1 pending copies accepted \\(1 in all\\), one per recipient \\(refused: ${late} \\(.*451.*, gave up after 2 attempts\\)\\)$`,
        ),
      );
    },
    TIMEOUT,
  );

  it(
    'fails when no copy was accepted by the last attempt',
    async () => {
      const userId = newUserId('never-accepted');
      const [late, gone] = [address('late'), address('gone')];
      sink.greylist.set(late, 2);
      sink.refuseRecipients.add(gone);
      const { id } = await send(userId, { to: [late, gone] });
      const message = await waitForStatus(t.http, userId, id, 'failed');

      expect(sink.acceptedFor(id)).toEqual([]);
      expect(transactionsFor(id)).toEqual([0, 0, 1]);
      expect(own(message.statusHistory).map((e) => e.status)).toEqual([
        'queued',
        'sending',
        'deferred',
        'sending',
        'failed',
      ]);
    },
    TIMEOUT,
  );
});
