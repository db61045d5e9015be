import { SuppressionList } from '../../deliverability';
import { EntityManager } from 'typeorm';
import { automock } from '../../../test/support/automock';
import { AttachmentsRepository } from '../../messages';
import { InvalidInputError, PayloadTooLargeError } from '../../platform/problem/problem.errors';
import { AppConfig } from '../../platform/config/app-config';
import { Database } from '../../platform/database/database';
import { IdempotencyKeys } from '../idempotency/idempotency-keys';
import { MessageLifecycle } from '../../messages';
import { Metrics } from '../../platform/metrics/metrics';
import { DeliveryQueue } from '../../platform/queue/delivery-queue';
import { MessageIntake } from './message-intake';
import { SendRequest } from './send-request';

const USER = 'user-1';
const STORED = '6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a';
const UNKNOWN = '7f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a';
// What the intake reads: the validated request has been held to the rest (MAX_RECIPIENTS, a webhook URL's target).
const config = { limits: { maxAttachmentBytes: 10 } } as AppConfig;
const body = (fields: Partial<SendRequest> = {}): SendRequest => ({
  subject: 'Hi',
  html: '<p>Hi</p>',
  to: ['ada@example.com'],
  sender: 'news@example.com',
  ...fields,
});

describe(`${MessageIntake.name}.acceptMany`, () => {
  let database: jest.Mocked<Database>;
  let lifecycle: jest.Mocked<MessageLifecycle>;
  let deliveries: jest.Mocked<DeliveryQueue>;
  let metrics: jest.Mocked<Metrics>;
  let idempotencyKeys: jest.Mocked<IdempotencyKeys>;
  let attachments: jest.Mocked<AttachmentsRepository>;
  let sut: MessageIntake;
  const manager = {} as EntityManager;

  beforeEach(() => {
    database = automock<Database>('Database');
    lifecycle = automock<MessageLifecycle>('MessageLifecycle');
    deliveries = automock<DeliveryQueue>('DeliveryQueue');
    metrics = automock<Metrics>('Metrics');
    idempotencyKeys = automock<IdempotencyKeys>('IdempotencyKeys');
    attachments = automock<AttachmentsRepository>('AttachmentsRepository');
    const suppressionList = automock<SuppressionList>('SuppressionList');
    suppressionList.suppressedAmong.mockResolvedValue(new Map());
    sut = new MessageIntake(
      database,
      lifecycle,
      deliveries,
      attachments,
      idempotencyKeys,
      suppressionList,
      config,
      metrics,
    );
  });

  it('stores every message with one lifecycle call and one enqueue in one transaction, answers them in order, and counts them', async () => {
    database.transaction.mockImplementation(async (work: (m: EntityManager) => Promise<unknown>) => work(manager));
    lifecycle.accept.mockImplementation((_manager, messages) =>
      Promise.resolve({
        messages: messages.map((m) => ({
          id: m.id,
          userId: m.userId,
          senderId: m.senderId,
          sender: m.sender,
          recipients: m.recipients,
          recipientFates: m.recipientFates,
          subject: m.subject,
          status: 'queued' as const,
          priority: m.priority,
          bulkSendingId: null,
          contactId: null,
          customPayload: null,
          sentAt: m.sentAt,
          cc: null,
          bcc: null,
          replyTo: null,
          scheduledAt: null,
          nextAttemptAt: null,
        })),
        outboxEventIds: [],
      }),
    );
    deliveries.enqueue.mockResolvedValue();
    const accepted = { inc: jest.fn() };
    Object.defineProperty(metrics, 'messagesAccepted', { value: accepted });

    const { messages, replayed } = await sut.acceptMany(USER, [
      body({ subject: 'one' }),
      body({ subject: 'two', priority: 'high' }),
      body({ subject: 'three' }),
    ]);

    expect(replayed).toBe(false);
    expect(messages.map((m) => m.subject)).toEqual(['one', 'two', 'three']);
    expect(database.transaction).toHaveBeenCalledTimes(1);
    expect(lifecycle.accept).toHaveBeenCalledTimes(1);
    expect(deliveries.enqueue).toHaveBeenCalledTimes(1);
    expect(deliveries.enqueue.mock.calls[0][1].map((j) => [j.job.messageId, j.priority])).toEqual(
      messages.map((m) => [m.id, m.priority]),
    );
    expect(accepted.inc).toHaveBeenCalledWith(3);
  });

  it('refuses the batch with 413 naming the message whose attachments are too large, before touching the database', async () => {
    const eleven = [{ fileName: 'a.bin', content: Buffer.alloc(11).toString('base64') }];

    const tooLarge = await sut.acceptMany(USER, [body(), body({ attachments: eleven })]).catch((e: unknown) => e);

    expect(tooLarge).toBeInstanceOf(PayloadTooLargeError);
    expect((tooLarge as Error).message).toMatch(/^messages\[1\]: /);
    expect(database.transaction).not.toHaveBeenCalled();
  });

  // Fields the request's validation refuses never reach the intake (send-message.dto.spec.ts): its own
  // field errors are about stored attachments, known only in the transaction.
  it("answers one message's field error rather than another's 413, naming messages[i], and stores nothing", async () => {
    database.transaction.mockImplementation(async (work: (m: EntityManager) => Promise<unknown>) => work(manager));
    const stored = { id: STORED, fileName: 'a.pdf', contentType: 'application/pdf', size: 6, createdAt: new Date() };
    attachments.findOwned.mockImplementation((_user, ids) => Promise.resolve(ids.includes(STORED) ? [stored] : []));
    const six = [{ fileName: 'b.bin', content: Buffer.alloc(6).toString('base64') }];

    const invalid = await sut
      .acceptMany(USER, [body({ attachmentIds: [STORED], attachments: six }), body({ attachmentIds: [UNKNOWN] })])
      .catch((e: unknown) => e);

    expect(invalid).toBeInstanceOf(InvalidInputError);
    expect((invalid as InvalidInputError).errors.map((e) => e.field)).toEqual(['messages[1].attachmentIds[0]']);
    expect(lifecycle.accept).not.toHaveBeenCalled();
  });

  it('answers a repeated Idempotency-Key with the stored batch, storing nothing', async () => {
    database.transaction.mockImplementation(async (work: (m: EntityManager) => Promise<unknown>) => work(manager));
    const earlier = { messages: [{ id: 'm-1' }] };
    idempotencyKeys.claim.mockResolvedValue(earlier);
    const requests = [body()];

    const result = await sut.acceptMany(USER, requests, 'key-1');

    expect(result).toEqual({ ...earlier, replayed: true });
    expect(idempotencyKeys.claim).toHaveBeenCalledWith(manager, USER, 'key-1', { messages: requests });
    expect(lifecycle.accept).not.toHaveBeenCalled();
  });
});
