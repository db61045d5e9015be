import { DataSource, EntityManager } from 'typeorm';
import { automock } from '../../test/support/automock';
import { DeliveryQueue } from '../queue/delivery-queue';
import { MessageRow, MessagesRepository, NewMessage } from '../messages/messages.repository';
import { Metrics } from '../metrics/metrics';
import { WebhookQueue } from '../queue/webhook-queue';
import { SendBatcher } from './send-batcher';

function newMessage(id: string): NewMessage {
  return { id, userId: 'u', priority: 'normal', sentAt: new Date(), attachments: [] } as unknown as NewMessage;
}

function rowOf(message: NewMessage): MessageRow {
  return { id: message.id, user_id: message.userId, status: 'queued', priority: message.priority, sent_at: message.sentAt, recipients: [] } as unknown as MessageRow;
}

describe(SendBatcher.name, () => {
  let dataSource: jest.Mocked<DataSource>;
  let repository: jest.Mocked<MessagesRepository>;
  let deliveries: jest.Mocked<DeliveryQueue>;
  let sut: SendBatcher;
  let commits: { size: number; release(): void; fail(error: Error): void }[];

  beforeEach(() => {
    commits = [];
    dataSource = automock<DataSource>('DataSource');
    repository = automock<MessagesRepository>('MessagesRepository');
    deliveries = automock<DeliveryQueue>('DeliveryQueue');
    const webhooks = automock<WebhookQueue>('WebhookQueue');
    const metrics = automock<Metrics>('Metrics');
    Object.defineProperty(metrics, 'messagesAccepted', { value: { inc: jest.fn() } });
    repository.create.mockImplementation(async (messages) => ({ rows: messages.map(rowOf), webhookEventIds: [] }));
    deliveries.enqueue.mockResolvedValue();
    deliveries.notifyCommitted.mockReturnValue();
    webhooks.enqueue.mockResolvedValue();
    // Each transaction runs its work, then waits to be committed (or failed) by the test.
    dataSource.transaction.mockImplementation((async (work: (m: EntityManager) => Promise<unknown>) => {
      const result = await work({} as EntityManager);
      await new Promise<void>((release, fail) => commits.push({ size: repository.create.mock.calls.at(-1)![0].length, release, fail }));
      return result;
    }) as never);
    sut = new SendBatcher(dataSource, repository, deliveries, webhooks, metrics);
  });

  const settle = () => new Promise((resolve) => setImmediate(resolve));

  it('shares a transaction among the sends that arrive while others are being written', async () => {
    const answers = Array.from({ length: 30 }, (_, i) => sut.store(newMessage(`m${i}`)));
    await settle();
    // Four writers start at once, one message each; the other 26 wait together.
    expect(commits.map((c) => c.size)).toEqual([1, 1, 1, 1]);

    commits.forEach((c) => c.release());
    await settle();

    expect(commits.slice(4).map((c) => c.size)).toEqual([26]);
    commits[4].release();
    expect((await Promise.all(answers)).map((m) => m.id)).toEqual(Array.from({ length: 30 }, (_, i) => `m${i}`));
    expect(deliveries.enqueue).toHaveBeenLastCalledWith(expect.anything(), expect.arrayContaining([{ job: { messageId: 'm29', attempt: 1 }, priority: 'normal' }]));
  });

  it('fails every send of a transaction that fails, and only those', async () => {
    const first = sut.store(newMessage('a'));
    await settle();
    const others = [sut.store(newMessage('b')), sut.store(newMessage('c'))];
    await settle();

    commits[0].fail(new Error('connection lost'));

    await expect(first).rejects.toThrow('connection lost');
    commits.slice(1).forEach((c) => c.release());
    expect((await Promise.all(others)).map((m) => m.id)).toEqual(['b', 'c']);
  });
});
