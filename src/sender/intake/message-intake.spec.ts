import { SuppressionList } from '../../deliverability';
import { EntityManager } from 'typeorm';
import { automock } from '../../../test/support/automock';
import { AttachmentsRepository } from '../../messages';
import { InvalidInputError, PayloadTooLargeError } from '../../platform/problem/problem.errors';
import { IdempotencyKeys } from '../idempotency/idempotency-keys';
import { AppConfig } from '../../platform/config/app-config';
import { Database } from '../../platform/database/database';
import { DeliveryQueue } from '../../platform/queue/delivery-queue';
import { Metrics } from '../../platform/metrics/metrics';
import { MessageLifecycle } from '../../messages';
import { NewMessage } from '../../messages';
import { senderIdFor } from '../../messages';
import { MessageIntake } from './message-intake';
import { SendRequest } from './send-request';

const USER = 'user-1';
// What the intake reads: the validated request has been held to the rest (MAX_RECIPIENTS, a webhook URL's target).
const config = { limits: { maxAttachmentBytes: 10 } } as AppConfig;

function body(fields: Partial<SendRequest> = {}): SendRequest {
  return { subject: 'Hi', html: '<p>Hi</p>', to: ['ada@example.com'], sender: 'News@Example.com', ...fields };
}

describe(MessageIntake.name, () => {
  let database: jest.Mocked<Database>;
  let lifecycle: jest.Mocked<MessageLifecycle>;
  let deliveries: jest.Mocked<DeliveryQueue>;
  let metrics: jest.Mocked<Metrics>;
  let attachments: jest.Mocked<AttachmentsRepository>;
  let sut: MessageIntake;
  const manager = {} as EntityManager;

  beforeEach(() => {
    database = automock<Database>('Database');
    lifecycle = automock<MessageLifecycle>('MessageLifecycle');
    deliveries = automock<DeliveryQueue>('DeliveryQueue');
    metrics = automock<Metrics>('Metrics');
    attachments = automock<AttachmentsRepository>('AttachmentsRepository');
    const idempotencyKeys = automock<IdempotencyKeys>('IdempotencyKeys');
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

  it('stores the message and queues its delivery in one transaction (whose commit wakes the workers: test/medium/platform/queue-wake-up.e2e-spec.ts)', async () => {
    const order: string[] = [];
    database.transaction.mockImplementation(async (work: (m: EntityManager) => Promise<unknown>) => {
      const result = await work(manager);
      order.push('commit');
      return result;
    });
    // The lifecycle queues the webhook events' jobs itself, in the same transaction (message-lifecycle.spec.ts).
    lifecycle.accept.mockImplementation((_manager, [message]) => {
      order.push('accept');
      const row = {
        id: message.id,
        userId: message.userId,
        senderId: message.senderId,
        sender: message.sender,
        recipients: message.recipients,
        recipientFates: message.recipientFates,
        subject: message.subject,
        status: 'queued' as const,
        priority: message.priority,
        bulkSendingId: null,
        contactId: null,
        customPayload: null,
        sentAt: message.sentAt,
        cc: null,
        bcc: null,
        replyTo: null,
        scheduledAt: null,
        nextAttemptAt: null,
      };
      return Promise.resolve({ messages: [row], outboxEventIds: ['event-1'] });
    });
    deliveries.enqueue.mockImplementation(() => Promise.resolve(void order.push('enqueue')));
    const accepted = { inc: jest.fn() };
    Object.defineProperty(metrics, 'messagesAccepted', { value: accepted });
    attachments.findOwned.mockResolvedValue([]);
    const { message: answer, replayed } = await sut.accept(
      USER,
      body({ attachments: [{ fileName: 'a.png', content: 'aGk=' }], webhook: { url: 'https://h.example.com' } }),
    );

    const [usedManager, [stored]] = lifecycle.accept.mock.calls[0];
    expect(usedManager).toBe(manager);
    expect(stored).toMatchObject<Partial<NewMessage>>({
      id: answer.id,
      userId: USER,
      senderId: senderIdFor(USER, 'news@example.com'),
      sender: 'News@Example.com',
      senderKey: 'news@example.com',
      recipientKeys: ['ada@example.com'],
      priority: 'normal',
      webhookUrl: 'https://h.example.com',
      webhookStatuses: [],
    });
    expect(stored.attachments).toEqual([
      {
        id: expect.any(String),
        fileName: 'a.png',
        contentType: 'image/png',
        size: 2,
        content: Buffer.from('hi'),
        contentId: null,
        attachmentId: null,
      },
    ]);
    expect(replayed).toBe(false);
    expect(answer).toMatchObject({ status: 'queued', userId: USER, sentAt: stored.sentAt.toISOString() });
    expect(deliveries.enqueue).toHaveBeenCalledWith(manager, [
      { job: { messageId: answer.id, attempt: 1 }, priority: 'normal' },
    ]);
    expect(order).toEqual(['accept', 'enqueue', 'commit']);
    expect(accepted.inc).toHaveBeenCalledTimes(1);
  });

  it('refuses attachments over the byte limit before touching the database', async () => {
    const eleven = Buffer.alloc(11).toString('base64');
    await expect(
      sut.accept(USER, body({ attachments: [{ fileName: 'a.bin', content: eleven }] })),
    ).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(database.transaction).not.toHaveBeenCalled();
  });

  it('names every attachment id the user has not stored, and stores nothing', async () => {
    database.transaction.mockImplementation(async (work: (m: EntityManager) => Promise<unknown>) => work(manager));
    const ids = [
      '6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a',
      '7F1F2F0D-7A21-4D3E-9C55-8C4F5F1E3B0A',
      '8f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a',
    ];
    attachments.findOwned.mockResolvedValue([
      {
        id: '7f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a',
        fileName: 'a.pdf',
        contentType: 'application/pdf',
        size: 1,
        createdAt: new Date(),
      },
    ]);

    const error = await sut.accept(USER, body({ attachmentIds: ids })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).errors.map((e) => e.field)).toEqual(['attachmentIds[0]', 'attachmentIds[2]']);
    expect(attachments.findOwned).toHaveBeenCalledWith(
      USER,
      ids.map((id) => id.toLowerCase()),
      manager,
    );
    expect(lifecycle.accept).not.toHaveBeenCalled();
  });

  it('counts stored attachments toward the byte limit with inline ones', async () => {
    database.transaction.mockImplementation(async (work: (m: EntityManager) => Promise<unknown>) => work(manager));
    const id = '6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a';
    attachments.findOwned.mockResolvedValue([
      { id, fileName: 'a.pdf', contentType: 'application/pdf', size: 8, createdAt: new Date() },
    ]);
    const three = Buffer.alloc(3).toString('base64');

    const sending = sut.accept(
      USER,
      body({ attachmentIds: [id], attachments: [{ fileName: 'b.bin', content: three }] }),
    );

    await expect(sending).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(lifecycle.accept).not.toHaveBeenCalled();
  });

  it("stores to, cc and bcc with repeats dropped, every recipient's address key once, and the sender's id by its address", async () => {
    database.transaction.mockImplementation(async (work: (m: EntityManager) => Promise<unknown>) => work(manager));
    lifecycle.accept.mockImplementation(() => Promise.reject(new Error('stop after the lifecycle was called')));

    await sut
      .accept(
        USER,
        body({
          sender: 'The News <News@Example.com>',
          to: ['Ada <ada@example.com>'],
          cc: ['ADA@example.com', 'Grace <grace@example.com>'],
          bcc: ['grace@EXAMPLE.com', 'eve@example.com'],
          replyTo: ['Desk <desk@example.com>'],
          text: 'Hi',
          headers: { 'X-A': 'b' },
          attachments: [
            { fileName: 'a.bin', content: 'aGk=', contentType: 'application/json' },
            { fileName: 'b.png', content: 'aGk=' },
          ],
        }),
      )
      .catch(() => undefined);

    const [[, [stored]]] = lifecycle.accept.mock.calls;
    expect(stored).toMatchObject<Partial<NewMessage>>({
      senderId: senderIdFor(USER, 'news@example.com'),
      sender: 'The News <News@Example.com>',
      senderKey: 'news@example.com',
      recipients: ['Ada <ada@example.com>'],
      cc: ['Grace <grace@example.com>'],
      bcc: ['eve@example.com'],
      recipientKeys: ['ada@example.com', 'grace@example.com', 'eve@example.com'],
      replyTo: ['Desk <desk@example.com>'],
      text: 'Hi',
      headers: { 'X-A': 'b' },
    });
    expect(stored.attachments.map((a) => a.contentType)).toEqual(['application/json', 'image/png']);
  });
});
