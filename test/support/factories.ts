import { initialFates } from '../../src/messages/recipient-fates';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { v7 as uuidv7 } from 'uuid';
import { MessageLifecycle } from '../../src/messages/lifecycle/message-lifecycle.repository';
import { WebhookQueue } from '../../src/platform/queue/webhook-queue';
import { MESSAGE_FAN_OUT } from '../../src/webhooks/events/fan-out.sql';
import { MessageStatus } from '../../src/messages/message-status';
import { NewMessage } from '../../src/messages/messages.repository';
import { addressKey } from '../../src/platform/mail/addresses';
import { senderIdFor } from '../../src/messages/addresses';
import { recipientKey } from '../../src/messages/recipients';

/** A body that POST /sender/send accepts; tests change one thing at a time. */
export function sendBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    subject: 'Your invoice',
    html: '<p>Hello Ada</p>',
    to: ['ada@example.com'],
    sender: 'billing@example.com',
    ...overrides,
  };
}

/**
 * Stores a message through the lifecycle, at a chosen time and status, for the list tests
 * that need control over time (the API stamps messages with "now").
 */
export async function storeMessage(
  db: DataSource,
  userId: string,
  fields: Partial<NewMessage> & { status?: MessageStatus } = {},
): Promise<NewMessage> {
  const [message] = await storeMessages(db, userId, [fields]);
  return message;
}

/** storeMessage for many messages at once: one insert, then one status change per status. */
export async function storeMessages(
  db: DataSource,
  userId: string,
  fieldsOfEach: (Partial<NewMessage> & { status?: MessageStatus })[],
): Promise<NewMessage[]> {
  const messages = fieldsOfEach.map(({ status: _status, ...fields }) => newMessage(userId, fields));
  // The jobs of any webhook events are not queued: a test that needs them sends through the API.
  await db.transaction((manager) =>
    new MessageLifecycle({ enqueue: async () => {} } as unknown as WebhookQueue, MESSAGE_FAN_OUT).accept(
      manager,
      messages,
    ),
  );
  const changed = messages.flatMap((message, i) => {
    const status = fieldsOfEach[i].status;
    return status && status !== 'queued'
      ? [{ id: message.id, status, at: new Date(message.sentAt.getTime() + 1000).toISOString() }]
      : [];
  });
  if (changed.length > 0) {
    const rows = JSON.stringify(changed);
    await db.query(
      `UPDATE messages m SET status = c.status FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, status text) WHERE m.id = c.id`,
      [rows],
    );
    await db.query(
      `INSERT INTO message_status_events (message_id, status, at)
       SELECT id, status, at FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, status text, at timestamptz)`,
      [rows],
    );
  }
  return messages;
}

function newMessage(userId: string, fields: Partial<NewMessage>): NewMessage {
  const sender = fields.sender ?? 'billing@example.com';
  const recipients = fields.recipients ?? ['ada@example.com'];
  const sentAt = fields.sentAt ?? new Date();
  const lists = { to: recipients, cc: fields.cc ?? [], bcc: fields.bcc ?? [] };
  return {
    id: uuidv7(),
    userId,
    senderId: senderIdFor(userId, sender),
    sender,
    senderKey: addressKey(sender),
    recipients,
    // As MessageIntake keys them: the address part of every to, cc and bcc entry (the caller keeps them distinct).
    recipientKeys: [...recipients, ...(fields.cc ?? []), ...(fields.bcc ?? [])].map(recipientKey),
    cc: null,
    bcc: null,
    replyTo: null,
    text: null,
    headers: null,
    subject: `Message ${randomUUID()}`,
    html: '<p>Hi</p>',
    priority: 'normal',
    bulkSendingId: null,
    contactId: null,
    customPayload: null,
    webhookUrl: null,
    webhookStatuses: null,
    sentAt,
    scheduledAt: null,
    attachments: [],
    recipientFates: initialFates(lists, new Map(), sentAt),
    ...fields,
  };
}

/** What rowsOwnedBy() finds for a user whose every request was refused. */
export const NOTHING_OWNED = {
  senders: 0,
  messages: 0,
  recipients: 0,
  events: 0,
  attachments: 0,
  storedAttachments: 0,
  idempotencyKeys: 0,
};

/** Row counts of everything a user owns, to prove that a refused request wrote nothing. */
export async function rowsOwnedBy(db: DataSource, userId: string): Promise<Record<string, number>> {
  const [counts] = await db.query(
    `SELECT
       (SELECT count(*)::int FROM senders WHERE user_id = $1) AS senders,
       (SELECT count(*)::int FROM messages WHERE user_id = $1) AS messages,
       (SELECT count(*)::int FROM message_recipients WHERE user_id = $1) AS recipients,
       (SELECT count(*)::int FROM message_status_events e JOIN messages m ON m.id = e.message_id WHERE m.user_id = $1) AS events,
       (SELECT count(*)::int FROM message_attachments a JOIN messages m ON m.id = a.message_id WHERE m.user_id = $1) AS attachments,
       (SELECT count(*)::int FROM attachments WHERE user_id = $1) AS "storedAttachments",
       (SELECT count(*)::int FROM idempotency_keys WHERE user_id = $1) AS "idempotencyKeys"`,
    [userId],
  );
  return counts;
}
