import { getMetadataArgsStorage } from 'typeorm';
import { MessageEntity } from './entities/message.entity';
import {
  asRecord,
  CLAIMED_FIELD_COLUMNS,
  GivenFields,
  MESSAGE_FIELDS,
  rowAsApi,
  rowColumns,
  RowFields,
} from './message-fields';

const given: GivenFields = {
  id: 'm1',
  recipients: ['Ada <ada@example.com>'],
  subject: 'Hi',
  senderId: 's1',
  userId: 'u1',
  sentAt: new Date('2026-03-01T10:00:00.123Z'),
  sender: 'news@example.com',
  bulkSendingId: null,
  contactId: 'c1',
  priority: 'high',
  customPayload: { a: 'b' },
  cc: null,
  bcc: ['eve@example.com'],
  replyTo: null,
  scheduledAt: null,
  recipientFates: [],
  html: '<p>Hi</p>',
  text: null,
  headers: null,
  webhookUrl: null,
  webhookStatuses: null,
};

describe('MESSAGE_FIELDS', () => {
  it('names each column as the entity declares it, with its PostgreSQL type', () => {
    const columns = getMetadataArgsStorage().columns.filter((c) => c.target === MessageEntity);
    const declared = new Map(
      columns.map(({ propertyName, options }) => [
        options.name ?? propertyName,
        `${String(options.type)}${options.array ? '[]' : ''}`,
      ]),
    );
    for (const { column, sqlType } of Object.values(MESSAGE_FIELDS))
      expect([column, declared.get(column)]).toEqual([column, sqlType]);
  });

  it('gives the recordset each given field by column, dates as JSON writes them', () => {
    const record = JSON.parse(JSON.stringify(asRecord(given))) as Record<string, unknown>;
    expect(record).toMatchObject({ id: 'm1', user_id: 'u1', reply_to: null, sent_at: '2026-03-01T10:00:00.123Z' });
    expect(Object.keys(record)).not.toContain('status');
  });

  it('reads the claimed fields from the claimed message', () => {
    expect(CLAIMED_FIELD_COLUMNS).toMatchObject({ replyTo: 'm.reply_to', sentAt: 'm.sent_at', html: 'm.html' });
    expect(CLAIMED_FIELD_COLUMNS).not.toHaveProperty('contactId');
  });

  it('selects each row column under its property name', () => {
    expect(rowColumns('m')).toContain('m.id, m.recipients, m.subject, m.sender_id AS "senderId"');
    expect(rowColumns('m')).toContain('m.recipient_fates AS "recipientFates"');
  });

  it('shows a row under the API names, dates as ISO strings', () => {
    const row = { ...given, status: 'queued' } as unknown as RowFields;
    expect(rowAsApi(row)).toEqual({
      id: 'm1',
      to: ['Ada <ada@example.com>'],
      subject: 'Hi',
      senderId: 's1',
      status: 'queued',
      userId: 'u1',
      sentAt: '2026-03-01T10:00:00.123Z',
      sender: 'news@example.com',
      bulkSendingId: null,
      contactId: 'c1',
      priority: 'high',
      customPayload: { a: 'b' },
      cc: null,
      bcc: ['eve@example.com'],
      replyTo: null,
      scheduledAt: null,
      recipients: [],
    });
  });
});
