import { automock } from '../../test/support/automock';
import { NotFoundError } from '../platform/problem/problem.errors';
import { ListMessagesQuery } from './dto/list-messages.query';
import { MessageCountsRepository } from './message-counts.repository';
import { MessageRow, MessagesRepository } from './messages.repository';
import { MessagesService } from './messages.service';
import { senderIdFor } from './addresses';

const USER = 'user-1';

function query(fields: Partial<ListMessagesQuery> = {}): ListMessagesQuery {
  return Object.assign(new ListMessagesQuery(), fields);
}

function row(id: string): MessageRow {
  return {
    id,
    userId: USER,
    senderId: 's',
    sender: 'a@example.com',
    recipients: ['b@example.com'],
    subject: 'Hi',
    status: 'queued',
    priority: 'normal',
    bulkSendingId: null,
    contactId: null,
    customPayload: null,
    sentAt: new Date('2026-03-01T10:00:00.000Z'),
    cc: null,
    bcc: null,
    replyTo: null,
    scheduledAt: null,
    nextAttemptAt: null,
    recipientFates: [],
  };
}

describe(MessagesService.name, () => {
  let repository: jest.Mocked<MessagesRepository>;
  let counts: jest.Mocked<MessageCountsRepository>;
  let sut: MessagesService;

  beforeEach(() => {
    repository = automock<MessagesRepository>('MessagesRepository');
    counts = automock<MessageCountsRepository>('MessageCountsRepository');
    sut = new MessagesService(repository, counts);
  });

  describe('list', () => {
    it('derives skip, totalPages and hasNext from take, page and the total', async () => {
      counts.count.mockResolvedValue(25);
      repository.list.mockResolvedValue([row('a')]);
      const page = await sut.list(USER, query({ take: 10, page: 3 }));
      expect(repository.list).toHaveBeenCalledWith(USER, expect.any(Object), 20, 10);
      expect(page).toMatchObject({ take: 10, page: 3, skip: 20, total: 25, totalPages: 3, hasNext: false });
    });

    it('does not query rows for a deep page past the end', async () => {
      counts.count.mockResolvedValue(5);
      const page = await sut.list(USER, query({ take: 100, page: 11 }));
      expect(page).toMatchObject({ messages: [], skip: 1000, total: 5, totalPages: 1, hasNext: false });
      expect(repository.list).not.toHaveBeenCalled();
    });

    it('reads a page near the top beside the count, and answers a page past the end with no messages', async () => {
      let countDone = false;
      counts.count.mockImplementation(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        countDone = true;
        return 5;
      });
      repository.list.mockImplementation(() => Promise.resolve((expect(countDone).toBe(false), [])));
      const page = await sut.list(USER, query({ take: 10, page: 2 }));
      expect(repository.list).toHaveBeenCalledWith(USER, expect.any(Object), 10, 10);
      expect(page).toMatchObject({ messages: [], skip: 10, total: 5, totalPages: 1, hasNext: false });
    });

    it('reports no pages for no messages', async () => {
      counts.count.mockResolvedValue(0);
      repository.list.mockResolvedValue([]);
      expect(await sut.list(USER, query())).toMatchObject({ total: 0, totalPages: 0, hasNext: false, messages: [] });
    });

    it('turns fromEmail into the sender id and passes the other filters through', async () => {
      counts.count.mockResolvedValue(0);
      repository.list.mockResolvedValue([]);
      const startDate = new Date('2026-03-01T00:00:00.000Z');
      await sut.list(
        USER,
        query({
          fromEmail: 'news@example.com',
          toEmail: 'ada@example.com',
          statuses: ['sent'],
          bulkSending: 'b',
          startDate,
        }),
      );
      expect(counts.count).toHaveBeenCalledWith(USER, {
        startDate,
        endDate: undefined,
        senderId: senderIdFor(USER, 'news@example.com'),
        recipient: 'ada@example.com',
        statuses: ['sent'],
        bulkSendingId: 'b',
      });
    });

    it('loads status histories for the whole page in one call, only when asked', async () => {
      counts.count.mockResolvedValue(2);
      repository.list.mockResolvedValue([row('a'), row('b')]);
      const withoutHistory = await sut.list(USER, query());
      expect(repository.getStatusHistories).not.toHaveBeenCalled();
      expect(withoutHistory.messages[0]).not.toHaveProperty('statusHistory');

      const at = new Date('2026-03-01T10:00:00.000Z');
      repository.getStatusHistories.mockResolvedValue(
        new Map([
          ['a', [{ messageId: 'a', status: 'queued', at, detail: null, recipient: null, note: false }]],
          ['b', []],
        ]),
      );
      const withHistory = await sut.list(USER, query({ includeStatusHistory: true }));
      expect(repository.getStatusHistories).toHaveBeenCalledTimes(1);
      expect(repository.getStatusHistories).toHaveBeenCalledWith(USER, ['a', 'b']);
      expect(withHistory.messages[0].statusHistory).toEqual([
        { status: 'queued', at: '2026-03-01T10:00:00.000Z', detail: null },
      ]);
    });
  });

  describe('get', () => {
    it('treats an id that is not a UUID as unknown without asking the database', async () => {
      await expect(sut.get(USER, 'nope')).rejects.toBeInstanceOf(NotFoundError);
      expect(repository.getById).not.toHaveBeenCalled();
    });

    it('is NotFound when the repository has no such message for the user', async () => {
      repository.getById.mockResolvedValue(undefined);
      const id = '01a1ff99-7a4f-72c1-b480-10d9bd71662f';
      await expect(sut.get(USER, id)).rejects.toThrow(`Message ${id} does not exist.`);
      expect(repository.getById).toHaveBeenCalledWith(USER, id);
    });
  });
});
