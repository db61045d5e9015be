import { EntityManager } from 'typeorm';
import { automock } from '../../../test/support/automock';
import { NewMessage } from '../messages.repository';
import { EventFanOut } from './event-fan-out';
import { MessageLifecycle } from './message-lifecycle.repository';
import { WebhookQueue } from '../../platform/queue/webhook-queue';

/** The webhooks context's part, which these tests do not run: a CTE that only names what it was handed. */
const fanOut: EventFanOut = { cte: (name, events) => `${name} AS (SELECT event_id AS id, message_id FROM ${events})` };

function newMessage(id: string, attachments: NewMessage['attachments'] = []): NewMessage {
  return {
    id,
    userId: 'u',
    senderId: 's',
    sender: 'a@example.com',
    senderKey: 'a@example.com',
    recipients: ['b@example.com'],
    recipientKeys: ['b@example.com'],
    subject: 'Hi',
    html: '<p>Hi</p>',
    priority: 'normal',
    bulkSendingId: null,
    contactId: null,
    customPayload: null,
    webhookUrl: 'https://h.example.com',
    webhookStatuses: [],
    sentAt: new Date(),
    scheduledAt: null,
    attachments,
    cc: null,
    bcc: null,
    replyTo: null,
    text: null,
    headers: null,
    recipientFates: [],
  };
}

describe(MessageLifecycle.name, () => {
  let outbox: jest.Mocked<WebhookQueue>;
  let query: jest.Mock;
  let manager: EntityManager;
  let order: string[];
  let sut: MessageLifecycle;

  beforeEach(() => {
    order = [];
    outbox = automock<WebhookQueue>('WebhookQueue');
    outbox.enqueue.mockImplementation(() => Promise.resolve(void order.push('outbox')));
    query = jest.fn();
    manager = { query } as unknown as EntityManager;
    sut = new MessageLifecycle(outbox, fanOut);
  });

  it('accepts messages in one statement, and queues their webhook events in the same transaction', async () => {
    const [first, second] = [
      newMessage('m1', [
        {
          id: 'a1',
          fileName: 'a.txt',
          contentType: 'text/plain',
          size: 2,
          content: Buffer.from('hi'),
          contentId: null,
          attachmentId: null,
        },
      ]),
      newMessage('m2'),
    ];
    query.mockImplementation((sql: string) => {
      order.push(sql.trimStart().startsWith('WITH given') ? 'insert' : 'attachment');
      // Returned in an order of the database's choosing.
      return Promise.resolve(
        sql.trimStart().startsWith('WITH given')
          ? [
              { id: 'm2', status: 'queued', outbox_event_ids: null },
              { id: 'm1', status: 'queued', outbox_event_ids: ['event-1'] },
            ]
          : [],
      );
    });

    const accepted = await sut.accept(manager, [first, second]);

    expect(accepted).toEqual({
      messages: [
        { id: 'm1', status: 'queued' },
        { id: 'm2', status: 'queued' },
      ],
      outboxEventIds: ['event-1'],
    });
    expect(order).toEqual(['insert', 'attachment', 'outbox']);
    expect(outbox.enqueue).toHaveBeenCalledWith(manager, ['event-1']);
    // queued, or scheduled while the moment asked for is still to come.
    expect(query.mock.calls[0][0]).toMatch(
      /CASE WHEN scheduled_at > sent_at THEN 'scheduled' ELSE 'queued' END AS status FROM given/,
    );
    expect(query.mock.calls[0][0]).toMatch(
      /INSERT INTO message_status_events \(message_id, status, at\) SELECT id, status, sent_at FROM accepted/,
    );
    // The events it describes, fanned out by the webhooks context in the same statement.
    expect(query.mock.calls[0][0]).toContain(
      '), outbox AS (SELECT event_id AS id, message_id FROM message_events)\n       SELECT ',
    );
  });

  it('claims a batch in one statement, noting attempts after the first in the history', async () => {
    query.mockResolvedValue([
      { id: 'm2', userId: 'u', status: 'sending', attempt: 2, subject: 'Hi', outbox_event_ids: ['event-2'] },
    ]);

    const claimed = await sut.claim<{ subject: string }>(
      manager,
      [
        { messageId: 'm1', attempt: 1 },
        { messageId: 'm2', attempt: 2, keepSuppressed: true },
      ],
      { subject: 'm.subject' },
    );

    expect(query).toHaveBeenCalledTimes(1);
    const [sql, params] = query.mock.calls[0];
    expect(sql).toContain(`m.subject AS "subject"`);
    expect(params).toEqual([
      ['m1', 'm2'],
      [1, 2],
      [null, null],
      [null, 'attempt 2'],
      [null, null],
      [null, null],
      [false, true],
      [null, null],
    ]);
    expect(claimed).toEqual({
      moved: [{ id: 'm2', userId: 'u', status: 'sending', attempt: 2, subject: 'Hi' }],
      outboxEventIds: ['event-2'],
    });
    expect(outbox.enqueue).toHaveBeenCalledWith(manager, ['event-2']);
  });

  it('finishes attempts with the targets, details and retry delays given, and queues no job when no webhook asked', async () => {
    query.mockResolvedValue([{ id: 'm1', userId: 'u', status: 'deferred', attempt: 1, outbox_event_ids: null }]);

    const finished = await sut.finish(manager, [
      { messageId: 'm1', attempt: 1, status: 'deferred', detail: '421 busy', retryAfterSeconds: 60 },
    ]);

    expect(query.mock.calls[0][1]).toEqual([['m1'], [1], ['deferred'], ['421 busy'], [null], [null], [false], [60]]);
    // The delay becomes the message's next_attempt_at in the same statement, and only for a deferral.
    expect(query.mock.calls[0][0]).toMatch(/next_attempt_at = CASE WHEN c\.status = 'deferred'/);
    expect(finished).toEqual({
      moved: [{ id: 'm1', userId: 'u', status: 'deferred', attempt: 1 }],
      outboxEventIds: [],
    });
    expect(outbox.enqueue).toHaveBeenCalledWith(manager, []);
  });

  it('locks a message state, the owner named or not', async () => {
    query.mockResolvedValueOnce([{ status: 'sent', attempts: 1 }]).mockResolvedValueOnce([]);

    expect(await sut.lockState(manager, 'm1')).toEqual({ status: 'sent', attempts: 1 });
    expect(await sut.lockState(manager, 'm2', 'u')).toBeUndefined();

    expect(query.mock.calls[0][0]).toMatch(/FROM messages\s+WHERE id = \$1 FOR UPDATE$/);
    expect(query.mock.calls[0][1]).toEqual(['m1']);
    expect(query.mock.calls[1][0]).toMatch(/WHERE id = \$1 AND user_id = \$2 FOR UPDATE$/);
    expect(query.mock.calls[1][1]).toEqual(['m2', 'u']);
  });

  it('bounces and complains for one recipient, with the report in the history entry', async () => {
    query
      .mockResolvedValueOnce([
        { id: 'm1', userId: 'u', status: 'bounced', attempt: null, outbox_event_ids: ['event-3'] },
      ])
      .mockResolvedValueOnce([])
      // The recipient statement's outbox rows: its recipient.complained event, to one endpoint.
      .mockResolvedValueOnce([{ id: 'event-4' }]);
    const report = { messageId: 'm1', detail: '550 5.1.1 no such user', recipient: 'ada@example.com', position: 0 };

    expect(await sut.bounce(manager, report)).toEqual({ id: 'm1', userId: 'u', status: 'bounced', attempt: null });
    expect(await sut.complain(manager, report)).toBeUndefined();

    expect(query.mock.calls[0][0]).toMatch(/SET status = 'bounced'/);
    expect(query.mock.calls[1][0]).toMatch(/SET status = 'complained'/);
    for (const [, params] of query.mock.calls.slice(0, 2))
      expect(params.slice(0, 5)).toEqual([['m1'], [null], [null], ['550 5.1.1 no such user'], ['ada@example.com']]);
    // The recipient's own fate changes in the same statement (docs/delivery-and-deliverability.md#statuses).
    expect(JSON.parse((query.mock.calls[0][1] as string[][])[5][0])).toEqual([
      { p: 0, k: 'ada@example.com', s: 'bounced', d: '550 5.1.1 no such user' },
    ]);
    expect(outbox.enqueue).toHaveBeenNthCalledWith(1, manager, ['event-3']);
    // The complaint moved nothing (mocked): the recipient is complained all the same (docs/delivery-and-deliverability.md#webhooks).
    expect(query.mock.calls[2][0]).toMatch(/UPDATE messages m SET recipient_fates/);
    expect(query.mock.calls[2][1]).toEqual([
      ['m1'],
      [JSON.stringify([{ p: 0, k: 'ada@example.com', s: 'complained', d: '550 5.1.1 no such user' }])],
    ]);
    expect(outbox.enqueue).toHaveBeenLastCalledWith(manager, ['event-4']);
  });

  it('changes no fate for a recipient the message does not list (position -1 would read the last one)', async () => {
    query.mockResolvedValueOnce([]);
    const report = { messageId: 'm1', detail: '550 5.1.1 no such user', recipient: 'zed@example.com', position: -1 };

    expect(await sut.bounce(manager, report)).toBeUndefined();

    expect(query).toHaveBeenCalledTimes(1);
    expect(JSON.parse((query.mock.calls[0][1] as string[][])[5][0])).toEqual([]);
  });
});
