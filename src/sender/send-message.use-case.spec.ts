import { DataSource, EntityManager } from 'typeorm';
import { automock } from '../../test/support/automock';
import { AttachmentsRepository } from '../attachments/attachments.repository';
import { InvalidInputError, PayloadTooLargeError } from '../common/problem/problem.errors';
import { IdempotencyKeys } from '../idempotency/idempotency-keys';
import { AppConfig } from '../config/app-config';
import { DeliveryQueue } from '../queue/delivery-queue';
import { Metrics } from '../metrics/metrics';
import { WebhookQueue } from '../queue/webhook-queue';
import { MessagesRepository, NewMessage } from '../messages/messages.repository';
import { senderIdFor } from '../messages/addresses';
import { SendMessageDto } from './dto/send-message.dto';
import { SendBatcher } from './send-batcher';
import { SendMessageUseCase } from './send-message.use-case';

const USER = 'user-1';
const config = { limits: { maxRecipients: 50, maxAttachmentBytes: 10 }, webhooks: { allowPrivateNetworks: false } } as AppConfig;

function body(fields: Partial<SendMessageDto> = {}): SendMessageDto {
  return Object.assign(new SendMessageDto(), { subject: 'Hi', html: '<p>Hi</p>', to: ['ada@example.com'], sender: 'News@Example.com', ...fields });
}

describe(SendMessageUseCase.name, () => {
  let dataSource: jest.Mocked<DataSource>;
  let repository: jest.Mocked<MessagesRepository>;
  let deliveries: jest.Mocked<DeliveryQueue>;
  let metrics: jest.Mocked<Metrics>;
  let webhooks: jest.Mocked<WebhookQueue>;
  let attachments: jest.Mocked<AttachmentsRepository>;
  let sut: SendMessageUseCase;
  const manager = {} as EntityManager;

  beforeEach(() => {
    dataSource = automock<DataSource>('DataSource');
    repository = automock<MessagesRepository>('MessagesRepository');
    deliveries = automock<DeliveryQueue>('DeliveryQueue');
    metrics = automock<Metrics>('Metrics');
    webhooks = automock<WebhookQueue>('WebhookQueue');
    attachments = automock<AttachmentsRepository>('AttachmentsRepository');
    const idempotencyKeys = automock<IdempotencyKeys>('IdempotencyKeys');
    const batcher = new SendBatcher(dataSource, repository, deliveries, webhooks, metrics);
    sut = new SendMessageUseCase(dataSource, batcher, attachments, idempotencyKeys, config);
  });

  it('stores the message and queues its delivery in one transaction, then wakes the workers', async () => {
    const order: string[] = [];
    dataSource.transaction.mockImplementation((async (work: (m: EntityManager) => Promise<unknown>) => {
      const result = await work(manager);
      order.push('commit');
      return result;
    }) as never);
    repository.create.mockImplementation(async ([message]) => {
      order.push('create');
      const row = {
        id: message.id, user_id: message.userId, sender_id: message.senderId, sender: message.sender, recipients: message.recipients,
        subject: message.subject, status: 'queued' as const, priority: message.priority, bulk_sending_id: null, contact_id: null,
        custom_payload: null, sent_at: message.sentAt,
      };
      return { rows: [row], webhookEventIds: ['event-1'] };
    });
    webhooks.enqueue.mockImplementation(async () => void order.push('webhooks'));
    deliveries.enqueue.mockImplementation(async () => void order.push('enqueue'));
    deliveries.notifyCommitted.mockImplementation(() => void order.push('notify'));
    const accepted = { inc: jest.fn() };
    Object.defineProperty(metrics, 'messagesAccepted', { value: accepted });
    attachments.findOwned.mockResolvedValue([]);
    const { message: answer, replayed } = await sut.execute(USER, body({ attachments: [{ fileName: 'a.png', content: 'aGk=' }], webhook: { url: 'https://h.example.com' } }));

    const [[stored], usedManager] = repository.create.mock.calls[0];
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
      { id: expect.any(String), fileName: 'a.png', contentType: 'image/png', size: 2, content: Buffer.from('hi'), attachmentId: null },
    ]);
    expect(replayed).toBe(false);
    expect(answer).toMatchObject({ status: 'queued', userId: USER, sentAt: stored.sentAt.toISOString() });
    expect(deliveries.enqueue).toHaveBeenCalledWith(manager, [{ job: { messageId: answer.id, attempt: 1 }, priority: 'normal' }]);
    expect(order).toEqual(['create', 'enqueue', 'webhooks', 'commit', 'notify']);
    expect(webhooks.enqueue).toHaveBeenCalledWith(manager, ['event-1']);
    expect(accepted.inc).toHaveBeenCalledTimes(1);
  });

  it('refuses attachments over the byte limit before touching the database', async () => {
    const eleven = Buffer.alloc(11).toString('base64');
    await expect(sut.execute(USER, body({ attachments: [{ fileName: 'a.bin', content: eleven }] }))).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(dataSource.transaction).not.toHaveBeenCalled();
  });

  it('names every attachment id the user has not stored, and stores nothing', async () => {
    dataSource.transaction.mockImplementation((async (work: (m: EntityManager) => Promise<unknown>) => work(manager)) as never);
    const ids = ['6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a', '7F1F2F0D-7A21-4D3E-9C55-8C4F5F1E3B0A', '8f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a'];
    attachments.findOwned.mockResolvedValue([
      { id: '7f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a', file_name: 'a.pdf', content_type: 'application/pdf', size: 1, created_at: new Date() },
    ]);

    const error = await sut.execute(USER, body({ attachmentIds: ids })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).errors.map((e) => e.field)).toEqual(['attachmentIds[0]', 'attachmentIds[2]']);
    expect(attachments.findOwned).toHaveBeenCalledWith(USER, ids.map((id) => id.toLowerCase()), manager);
    expect(repository.create).not.toHaveBeenCalled();
  });

  it('counts stored attachments toward the byte limit with inline ones', async () => {
    dataSource.transaction.mockImplementation((async (work: (m: EntityManager) => Promise<unknown>) => work(manager)) as never);
    const id = '6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a';
    attachments.findOwned.mockResolvedValue([{ id, file_name: 'a.pdf', content_type: 'application/pdf', size: 8, created_at: new Date() }]);
    const three = Buffer.alloc(3).toString('base64');

    const sending = sut.execute(USER, body({ attachmentIds: [id], attachments: [{ fileName: 'b.bin', content: three }] }));

    await expect(sending).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(repository.create).not.toHaveBeenCalled();
  });
});
