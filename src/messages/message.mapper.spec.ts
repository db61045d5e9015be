import { historyAsOf, mapMessage } from './message.mapper';
import type { MessageRow, StatusEventRow } from './messages.repository';
import type { MessageStatus } from './message-status';

const at = new Date('2026-03-01T10:00:00.000Z');
const entry = (status: MessageStatus, note = false): StatusEventRow => ({
  messageId: 'm',
  status,
  at,
  detail: null,
  recipient: null,
  note,
});

describe('historyAsOf', () => {
  // queued, sending, sent, a delay notice (no change), bounced, a note, complained.
  const history = [
    entry('queued'),
    entry('sending'),
    entry('sent'),
    entry('sent', true),
    entry('bounced'),
    entry('bounced', true),
    entry('complained'),
  ];

  it('ends at the sequence-th status change, keeping the notes before it', () => {
    expect(historyAsOf(history, 3).map((e) => e.status)).toEqual(['queued', 'sending', 'sent']);
    expect(historyAsOf(history, 4)).toEqual(history.slice(0, 5));
    expect(historyAsOf(history, 5)).toEqual(history);
  });

  it('is the whole history for a sequence past its changes', () => {
    expect(historyAsOf(history, 9)).toEqual(history);
  });
});

describe('mapMessage', () => {
  const due = new Date('2026-03-01T10:05:00.000Z');
  const row = (status: MessageStatus): MessageRow => ({
    id: 'm',
    userId: 'u',
    senderId: 's',
    sender: 'a@example.com',
    recipients: ['b@example.com'],
    subject: 'Hi',
    status,
    priority: 'normal',
    bulkSendingId: null,
    contactId: null,
    customPayload: null,
    sentAt: at,
    cc: null,
    bcc: null,
    replyTo: null,
    scheduledAt: null,
    nextAttemptAt: due,
    recipientFates: [],
  });

  it('shows the next attempt of a deferred message only, whatever the row still holds', () => {
    expect(mapMessage(row('deferred')).nextAttemptAt).toBe(due.toISOString());
    for (const status of ['sending', 'sent', 'failed', 'canceled'] as const)
      expect(mapMessage(row(status)).nextAttemptAt).toBeNull();
  });
});
