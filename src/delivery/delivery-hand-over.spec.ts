import { generateKeyPairSync } from 'node:crypto';
import { automockProvider } from '../../test/support/automock';
import { VerpAddresses } from '../deliverability';
import { AppConfig } from '../platform/config/app-config';
import { DkimSigningKey, SealedSigningKey, SigningKeys } from '../deliverability';
import { DeliveryJob } from '../platform/queue/delivery-queue';
import { QueueJob } from '../platform/queue/job-queue';
import { UnsubscribeHeaders } from '../deliverability';
import { DeliveryHandOver } from './delivery-hand-over';
import { DeliveryRecorder, JobResult } from './delivery-recorder';
import { DeliverableMessage } from './delivery.repository';
import type { OutgoingMail } from '../messages';
import { envelopeOf } from '../messages';
import { asOneTransaction, MailDeliveryError, MailReceipt, Mailer } from './mailer/mailer';
import { recipientPositions } from './recipient-positions';

const RETRY_DELAYS = [30, 120];
const KEY: SealedSigningKey = {
  domainId: 'd1',
  domainName: 'example.com',
  keySelector: 's1',
  sealed: Buffer.from('k'),
};
const OPENED: DkimSigningKey = {
  domainName: 'example.com',
  keySelector: 's1',
  privateKey: generateKeyPairSync('ed25519').privateKey,
};

function message(fields: Partial<DeliverableMessage> = {}): DeliverableMessage {
  const stored = {
    id: 'm1',
    userId: 'user-1',
    attempt: 1,
    sender: 'Ada <ada@example.com>',
    recipients: ['bob@example.org', 'carol@example.org'],
    cc: null,
    bcc: null,
    replyTo: null,
    subject: 'Hello',
    html: '<p>Hi</p>',
    text: null,
    headers: null,
    priority: 'normal' as const,
    bulkSendingId: null,
    sentAt: new Date('2026-11-26T12:00:00Z'),
    attachments: [],
    mime: null,
    ...fields,
  };
  return { ...stored, positions: recipientPositions(stored) };
}

const job = (data: Partial<DeliveryJob> = {}): QueueJob<DeliveryJob> => ({
  id: 'j1',
  data: { messageId: 'm1', attempt: 1, ...data },
});
const accepted = (reply = '250 2.0.0 Ok') => ({ reply, rejected: [] });
const greylisted = () => new MailDeliveryError('451 4.7.1 Greylisted', false);
const noSuchUser = () => new MailDeliveryError('550 5.1.1 No such user', true);

describe(DeliveryHandOver.name, () => {
  let sut: DeliveryHandOver;
  let mailer: jest.Mocked<Mailer>;
  /** The one transaction a relay makes of each mail: what each test sets up. */
  let send: jest.Mock<Promise<MailReceipt>, [OutgoingMail]>;
  let signingKeys: jest.Mocked<SigningKeys>;
  let verp: jest.Mocked<VerpAddresses>;
  let recorded: JobResult[];
  /** Told once the mail server has answered (the worker frees the slot then). */
  let replied: jest.Mock<void, []>;
  let record: jest.Mocked<DeliveryRecorder>['record'];

  /** What the attempt was recorded as (the part the hand-over decides). */
  const finished = () => recorded.map(({ jobId, finished: f }) => ({ jobId, ...f }));
  const sentTo = () => send.mock.calls.map(([mail]) => envelopeOf(mail).to.join(', '));

  beforeEach(() => {
    const built = automockProvider(DeliveryHandOver);
    sut = built.sut;
    mailer = built.mock(Mailer);
    // A relay's hand-over (one transaction for the mail's envelope), over the send each test sets up.
    send = jest.fn();
    mailer.deliver.mockImplementation((mail) => asOneTransaction(mail, send));
    signingKeys = built.mock(SigningKeys);
    verp = built.mock(VerpAddresses);
    Object.defineProperty(built.mock(AppConfig), 'delivery', {
      value: { retryDelays: RETRY_DELAYS, concurrency: 2, leaseSeconds: 120 },
    });
    Object.defineProperty(verp, 'domain', { value: undefined, writable: true });
    built.mock(UnsubscribeHeaders).for.mockReturnValue({});
    recorded = [];
    replied = jest.fn();
    record = built.mock(DeliveryRecorder).record;
    record.mockImplementation((result) => {
      recorded.push(result);
      return Promise.resolve();
    });
  });

  describe('a message sent whole (one SMTP transaction)', () => {
    it('records it sent with the server’s reply', async () => {
      send.mockResolvedValue(accepted('250 2.0.0 Ok: queued as 7'));

      await sut.execute(job(), message(), replied);

      expect(sentTo()).toEqual(['bob@example.org, carol@example.org']);
      // The slot is freed once the server has answered, before the outcome is written.
      expect(replied).toHaveBeenCalledTimes(1);
      expect(replied.mock.invocationCallOrder[0]).toBeGreaterThan(send.mock.invocationCallOrder[0]);
      expect(replied.mock.invocationCallOrder[0]).toBeLessThan(record.mock.invocationCallOrder[0]);
      expect(finished()).toEqual([
        {
          jobId: 'j1',
          messageId: 'm1',
          userId: 'user-1',
          attempt: 1,
          priority: 'normal',
          sentAt: new Date('2026-11-26T12:00:00Z'),
          status: 'sent',
          detail: '250 2.0.0 Ok: queued as 7',
          // Each recipient sent with the reply (docs/delivery-and-deliverability.md#statuses "Recipients"); none refused as unknown.
          fates: [
            { position: 0, key: 'bob@example.org', status: 'sent', detail: '250 2.0.0 Ok: queued as 7' },
            { position: 1, key: 'carol@example.org', status: 'sent', detail: '250 2.0.0 Ok: queued as 7' },
          ],
          hardBounces: [],
        },
      ]);
    });

    it('defers it on a temporary failure while retries are left', async () => {
      send.mockRejectedValue(greylisted());

      await sut.execute(job({ attempt: 2 }), message({ attempt: 2 }), replied);

      expect(finished()).toMatchObject([
        { status: 'deferred', detail: '451 4.7.1 Greylisted', retryAfterSeconds: RETRY_DELAYS[1] },
      ]);
      // A refusal is an answer too: the slot is freed before the outcome is written.
      expect(replied).toHaveBeenCalledTimes(1);
      expect(replied.mock.invocationCallOrder[0]).toBeLessThan(record.mock.invocationCallOrder[0]);
    });

    it('neither frees the slot nor records anything when the hand-over itself throws (the job loop gives the job back)', async () => {
      mailer.deliver.mockImplementation(() => {
        throw new Error('a bug in the mailer');
      });

      await expect(sut.execute(job(), message(), replied)).rejects.toThrow('a bug in the mailer');

      expect(replied).not.toHaveBeenCalled();
      expect(record).not.toHaveBeenCalled();
    });

    it('fails it on a temporary failure when no retry is left', async () => {
      send.mockRejectedValue(greylisted());

      await sut.execute(job({ attempt: 3 }), message({ attempt: 3 }), replied);

      expect(finished()).toEqual([
        expect.objectContaining({ status: 'failed', detail: '451 4.7.1 Greylisted (gave up after 3 attempts)' }),
      ]);
      expect(finished()[0]).not.toHaveProperty('retryAfterSeconds');
    });

    it('fails it at once on a permanent failure', async () => {
      send.mockRejectedValue(noSuchUser());

      await sut.execute(job(), message(), replied);

      expect(finished()).toEqual([expect.objectContaining({ status: 'failed', detail: '550 5.1.1 No such user' })]);
    });

    it('judges each recipient by its own reply when every one is refused, some for good and some for now', async () => {
      const unknown = '550 5.1.1 <bob@example.org>: User unknown';
      const busy = '452 4.2.2 Mailbox busy';
      // nodemailer throws one error, with the temporary code, naming each refusal.
      send.mockRejectedValue(
        new MailDeliveryError(busy, false, 'RCPT TO', [
          { address: 'bob@example.org', reply: unknown, permanent: true },
          { address: 'carol@example.org', reply: busy, permanent: false },
        ]),
      );

      await sut.execute(job(), message(), replied);

      expect(finished()).toMatchObject([
        {
          status: 'deferred',
          retryAfterSeconds: RETRY_DELAYS[0],
          copies: { pending: [1], accepted: 0 },
          fates: [
            { position: 0, status: 'failed', detail: unknown },
            { position: 1, status: 'deferred', detail: busy },
          ],
          hardBounces: ['bob@example.org'],
        },
      ]);
    });

    it('sends a retry to the recipients its job names as pending alone, as one mail with the message’s headers', async () => {
      send.mockResolvedValue(accepted('250 2.0.0 Ok: queued as 8'));
      const three = message({
        attempt: 2,
        recipients: ['bob@example.org'],
        cc: ['carol@example.org'],
        bcc: ['dan@example.org'],
      });

      await sut.execute(job({ attempt: 2, copies: { pending: [1, 2], accepted: 1 } }), three, replied);

      expect(sentTo()).toEqual(['carol@example.org, dan@example.org']);
      const [[mail]] = send.mock.calls;
      expect([mail.to, mail.cc, mail.copyFor]).toEqual([['bob@example.org'], ['carol@example.org'], undefined]);
      expect(finished()).toMatchObject([
        {
          status: 'sent',
          detail: '250 2.0.0 Ok: queued as 8',
          fates: [
            { position: 1, status: 'sent' },
            { position: 2, status: 'sent' },
          ],
        },
      ]);
    });

    it('judges each of the transactions the mailer makes of the mail (one per recipient domain) by its own result', async () => {
      const route = { host: 'mx.example.org', tls: true };
      mailer.deliver.mockResolvedValue([
        { recipients: ['bob@example.org'], result: { receipt: { reply: '250 ok', rejected: [], route } } },
        {
          recipients: ['carol@example.org'],
          result: { error: new MailDeliveryError('451 4.7.1 try again in 2 minutes', false, 'RCPT TO', [], route) },
        },
      ]);

      await sut.execute(job(), message(), replied);

      expect(finished()).toMatchObject([
        {
          status: 'deferred',
          retryAfterSeconds: 120,
          copies: { pending: [1], accepted: 1 },
          fates: [
            { position: 0, status: 'sent', route },
            { position: 1, status: 'deferred', route },
          ],
        },
      ]);
    });

    it('signs it with the sender’s key', async () => {
      signingKeys.open.mockReturnValue(OPENED);
      send.mockResolvedValue(accepted());

      await sut.execute(job(), message({ signingKey: KEY }), replied);

      expect(signingKeys.open.mock.calls).toEqual([[KEY]]);
      expect(send.mock.calls[0][0].dkim).toBe(OPENED);
    });

    it('defers it, unsent, when the key cannot be decrypted', async () => {
      signingKeys.open.mockImplementation(() => {
        throw new Error('the signing key cannot be decrypted');
      });

      await sut.execute(job(), message({ signingKey: KEY }), replied);

      expect(send.mock.calls).toEqual([]);
      expect(finished()).toMatchObject([
        { status: 'deferred', detail: 'the signing key cannot be decrypted', retryAfterSeconds: RETRY_DELAYS[0] },
      ]);
    });
  });

  describe('a message sent as one copy per recipient (bulk, or VERP)', () => {
    const bulk = (fields: Partial<DeliverableMessage> = {}) =>
      message({
        bulkSendingId: 'b1',
        recipients: ['bob@example.org', 'carol@example.org', 'dan@example.org'],
        ...fields,
      });
    const replies: Record<string, () => Promise<ReturnType<typeof accepted>>> = {
      'bob@example.org': () => Promise.resolve(accepted('250 bob')),
      'carol@example.org': () => Promise.reject(greylisted()),
      'dan@example.org': () => Promise.reject(noSuchUser()),
    };
    beforeEach(() => {
      // Without BOUNCE_DOMAIN, no copy has an envelope sender of its own.
      verp.envelopeSender.mockReturnValue(undefined);
      send.mockImplementation((mail: OutgoingMail) => replies[mail.copyFor!.address]());
    });

    it('defers the copies refused for now, naming them in the next job, and retries none of the others', async () => {
      await sut.execute(job(), bulk(), replied);

      expect(sentTo()).toEqual(['bob@example.org', 'carol@example.org', 'dan@example.org']);
      expect(finished()).toMatchObject([
        {
          status: 'deferred',
          retryAfterSeconds: RETRY_DELAYS[0],
          copies: { pending: [1], accepted: 1 },
        },
      ]);
    });

    it('sends only the copies its job names as pending, and is sent once none is left to retry', async () => {
      await sut.execute(job({ attempt: 3, copies: { pending: [1, 2], accepted: 1 } }), bulk({ attempt: 3 }), replied);

      expect(sentTo()).toEqual(['carol@example.org', 'dan@example.org']);
      expect(finished()).toEqual([expect.objectContaining({ status: 'sent' })]);
      expect(finished()[0].detail).toContain('carol@example.org (451 4.7.1 Greylisted, gave up after 3 attempts)');
    });

    it('gives each copy its VERP envelope sender when BOUNCE_DOMAIN is set, bulk or not', async () => {
      Object.defineProperty(verp, 'domain', { value: 'bounces.example.net' });
      verp.envelopeSender.mockImplementation(({ recipient }) => `bounces+${recipient}@bounces.example.net`);
      send.mockResolvedValue(accepted());

      await sut.execute(job(), message(), replied);

      expect(send.mock.calls.map(([mail]) => mail.copyFor)).toEqual([
        { address: 'bob@example.org', position: 0, envelopeFrom: 'bounces+0@bounces.example.net' },
        { address: 'carol@example.org', position: 1, envelopeFrom: 'bounces+1@bounces.example.net' },
      ]);
      expect(finished()).toEqual([expect.objectContaining({ status: 'sent' })]);
    });

    it('defers every copy, none sent unsigned, when the key cannot be decrypted', async () => {
      signingKeys.open.mockImplementation(() => {
        throw new Error('the signing key cannot be decrypted');
      });

      await sut.execute(job(), bulk({ signingKey: KEY }), replied);

      expect(send.mock.calls).toEqual([]);
      expect(finished()).toMatchObject([{ status: 'deferred', copies: { pending: [0, 1, 2], accepted: 0 } }]);
    });
  });
});
