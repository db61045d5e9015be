import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PreparedStatements } from '../database/prepared-statements';
import { webhookEventsCte } from '../webhooks/webhook-events.sql';
import type { MessagePriority, MessageStatus } from './message-status';

/** A message as lists and look-ups read it: everything but the body and the attachments. */
export interface MessageRow {
  id: string;
  user_id: string;
  sender_id: string;
  sender: string;
  recipients: string[];
  subject: string;
  status: MessageStatus;
  priority: MessagePriority;
  bulk_sending_id: string | null;
  contact_id: string | null;
  custom_payload: Record<string, string> | null;
  sent_at: Date;
}

export interface StatusEventRow {
  message_id: string;
  status: MessageStatus;
  at: Date;
  detail: string | null;
}

export interface MessageFilter {
  startDate?: Date;
  endDate?: Date;
  senderId?: string;
  /** Lower-cased. */
  recipient?: string;
  statuses?: MessageStatus[];
  bulkSendingId?: string;
}

export interface NewMessage {
  id: string;
  userId: string;
  senderId: string;
  sender: string;
  /** The sender's addressKey(). */
  senderKey: string;
  recipients: string[];
  /** addressKey() of each recipient, in the same order. */
  recipientKeys: string[];
  subject: string;
  html: string;
  priority: MessagePriority;
  bulkSendingId: string | null;
  contactId: string | null;
  customPayload: Record<string, string> | null;
  webhookUrl: string | null;
  webhookStatuses: MessageStatus[] | null;
  sentAt: Date;
  /** Inline ones carry their bytes; stored ones name the attachment that holds them. */
  attachments: { id: string; fileName: string; contentType: string; size: number; content: Buffer | null; attachmentId: string | null }[];
}

const COLUMNS = [
  'id', 'user_id', 'sender_id', 'sender', 'recipients', 'subject', 'status', 'priority',
  'bulk_sending_id', 'contact_id', 'custom_payload', 'sent_at',
];
const ROW_COLUMNS = COLUMNS.map((column) => `m.${column}`).join(', ');
// Below this skip, reading the skipped rows costs no more than planning the join that avoids them
// (on the bench's million-message user: 0.5 against 0.7 ms for the first page, about even at a
// skip of 1,000).
const DEFERRED_JOIN_FROM_SKIP = 1_000;

/**
 * Every read takes the owner's user id and filters on it, so that no method can return another
 * user's message by mistake.
 */
@Injectable()
export class MessagesRepository {
  constructor(private readonly statements: PreparedStatements) {}

  async getById(userId: string, id: string): Promise<MessageRow | undefined> {
    const rows: MessageRow[] = await this.statements.query(
      `SELECT ${ROW_COLUMNS} FROM messages m WHERE m.user_id = $1 AND m.id = $2`,
      [userId, id],
    );
    return rows[0];
  }

  async count(userId: string, filter: MessageFilter): Promise<number> {
    const { where, params } = whereClause(userId, filter);
    const [{ count }] = await this.statements.query<{ count: number }>(`SELECT count(*)::int AS count FROM messages m WHERE ${where}`, params);
    return count;
  }

  /**
   * Newest first, ties broken by id, so that pages never overlap or skip. A page near the top is
   * read straight from its rows. Deeper, the page's ids are found first, from an index alone
   * where it can (the skipped entries are index entries, not table rows), and only the page's
   * rows are read; recipient filters always start from the recipients' index.
   */
  async list(userId: string, filter: MessageFilter, skip: number, take: number): Promise<MessageRow[]> {
    if (skip < DEFERRED_JOIN_FROM_SKIP && !filter.recipient) {
      const { where, params } = whereClause(userId, filter);
      return this.statements.query(
        `SELECT ${ROW_COLUMNS} FROM messages m WHERE ${where}
         ORDER BY m.sent_at DESC, m.id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
        [...params, skip, take],
      );
    }
    const { from, where, params } = pageSource(userId, filter);
    return this.statements.query(
      `SELECT ${ROW_COLUMNS} FROM (
         SELECT ${from.key} AS id, ${from.time} AS sent_at FROM ${from.tables} WHERE ${where}
         ORDER BY ${from.time} DESC, ${from.key} DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}
       ) page JOIN messages m ON m.id = page.id
       ORDER BY page.sent_at DESC, page.id DESC`,
      [...params, skip, take],
    );
  }

  /** The status histories of several messages in one query, oldest entry first. */
  async getStatusHistories(userId: string, messageIds: string[]): Promise<Map<string, StatusEventRow[]>> {
    const histories = new Map<string, StatusEventRow[]>(messageIds.map((id) => [id, []]));
    if (messageIds.length === 0) return histories;
    const rows: StatusEventRow[] = await this.statements.query(
      `SELECT e.message_id, e.status, e.at, e.detail
       FROM message_status_events e JOIN messages m ON m.id = e.message_id
       WHERE m.user_id = $1 AND e.message_id = ANY($2::uuid[])
       ORDER BY e.message_id, e.id`,
      [userId, messageIds],
    );
    for (const row of rows) histories.get(row.message_id)!.push(row);
    return histories;
  }

  /**
   * Stores new messages as `queued`, in one statement whatever their number: their senders (once
   * per user and address), the messages, their recipients, the first history entries, and any
   * webhook events; then their attachments. Returns them as lists read them, in the order given.
   * Pass the manager of the caller's transaction so that whatever else the send writes commits
   * or rolls back with it.
   */
  async create(messages: NewMessage[], manager: EntityManager): Promise<{ rows: MessageRow[]; webhookEventIds: string[] }> {
    const stored: (MessageRow & { webhook_event_id: string | null })[] = await manager.query(
      `WITH given AS (
         SELECT * FROM jsonb_to_recordset($1::jsonb) AS g(
           id uuid, user_id text, sender_id uuid, sender text, sender_key text, recipients text[], recipient_keys text[],
           subject text, html text, priority text, bulk_sending_id text, contact_id text, custom_payload jsonb,
           webhook_url text, webhook_statuses text[], sent_at timestamptz)
       ), sender AS (
         -- In id order: two batches taking the same new senders' index locks in opposite orders
         -- would deadlock.
         INSERT INTO senders (id, user_id, email)
         SELECT DISTINCT sender_id, user_id, sender_key FROM given ORDER BY sender_id ON CONFLICT DO NOTHING
       ), m AS (
         INSERT INTO messages (id, user_id, sender_id, sender, recipients, subject, html, status, priority,
           bulk_sending_id, contact_id, custom_payload, webhook_url, webhook_statuses, sent_at, updated_at)
         SELECT id, user_id, sender_id, sender, recipients, subject, html, 'queued', priority,
           bulk_sending_id, contact_id, custom_payload, webhook_url, webhook_statuses, sent_at, sent_at
         FROM given
         RETURNING ${COLUMNS.join(', ')}, status_changes, webhook_url, webhook_statuses
       ), recipients AS (
         INSERT INTO message_recipients (message_id, email, user_id, sent_at)
         SELECT given.id, key, given.user_id, given.sent_at FROM given, unnest(given.recipient_keys) AS key
       ), history AS (
         INSERT INTO message_status_events (message_id, status, at) SELECT id, 'queued', sent_at FROM given
       ), ${webhookEventsCte('m')}
       SELECT m.*, w.id AS webhook_event_id FROM m LEFT JOIN webhook_events_created w ON w.message_id = m.id`,
      [JSON.stringify(messages.map(asRecord))],
    );
    for (const message of messages) {
      for (const [position, attachment] of message.attachments.entries()) {
        await manager.query(
          `INSERT INTO message_attachments (id, message_id, position, file_name, content_type, size, content, attachment_id)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [attachment.id, message.id, position, attachment.fileName, attachment.contentType, attachment.size, attachment.content, attachment.attachmentId],
        );
      }
    }
    const byId = new Map(stored.map(({ webhook_event_id: _, ...row }) => [row.id, row]));
    return {
      rows: messages.map((message) => byId.get(message.id)!),
      webhookEventIds: stored.flatMap((row) => (row.webhook_event_id ? [row.webhook_event_id] : [])),
    };
  }
}

/** A new message as one element of the JSON that create() reads with jsonb_to_recordset. */
function asRecord(message: NewMessage) {
  return {
    id: message.id,
    user_id: message.userId,
    sender_id: message.senderId,
    sender: message.sender,
    sender_key: message.senderKey,
    recipients: message.recipients,
    recipient_keys: message.recipientKeys,
    subject: message.subject,
    html: message.html,
    priority: message.priority,
    bulk_sending_id: message.bulkSendingId,
    contact_id: message.contactId,
    custom_payload: message.customPayload,
    webhook_url: message.webhookUrl,
    webhook_statuses: message.webhookStatuses,
    // Milliseconds, as the column keeps them.
    sent_at: message.sentAt.toISOString(),
  };
}

function pageSource(userId: string, filter: MessageFilter) {
  if (!filter.recipient) return { from: { tables: 'messages m', key: 'm.id', time: 'm.sent_at' }, ...whereClause(userId, filter) };
  const params: unknown[] = [userId, filter.recipient];
  const conditions = ['r.user_id = $1', 'r.email = $2'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.startDate) add((p) => `r.sent_at >= ${p}`, filter.startDate);
  if (filter.endDate) add((p) => `r.sent_at <= ${p}`, filter.endDate);
  const joinsMessages = Boolean(filter.senderId || filter.statuses || filter.bulkSendingId);
  if (filter.senderId) add((p) => `m.sender_id = ${p}`, filter.senderId);
  if (filter.statuses) add(...statusCondition(filter.statuses));
  if (filter.bulkSendingId) add((p) => `m.bulk_sending_id = ${p}`, filter.bulkSendingId);
  const tables = joinsMessages ? 'message_recipients r JOIN messages m ON m.id = r.message_id' : 'message_recipients r';
  return { from: { tables, key: 'r.message_id', time: 'r.sent_at' }, where: conditions.join(' AND '), params };
}

function whereClause(userId: string, filter: MessageFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [userId];
  const conditions = ['m.user_id = $1'];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  if (filter.startDate) add((p) => `m.sent_at >= ${p}`, filter.startDate);
  if (filter.endDate) add((p) => `m.sent_at <= ${p}`, filter.endDate);
  if (filter.senderId) add((p) => `m.sender_id = ${p}`, filter.senderId);
  if (filter.statuses) add(...statusCondition(filter.statuses));
  if (filter.bulkSendingId) add((p) => `m.bulk_sending_id = ${p}`, filter.bulkSendingId);
  if (filter.recipient) {
    add((p) => `EXISTS (SELECT 1 FROM message_recipients r WHERE r.user_id = $1 AND r.email = ${p} AND r.message_id = m.id)`, filter.recipient);
  }
  return { where: conditions.join(' AND '), params };
}

/**
 * One status is compared for equality, so that the (user, status, time) index hands its rows over
 * in order; with ANY, PostgreSQL walks the user's newest messages and filters them, which for a
 * rare status means thousands of rows per page.
 */
function statusCondition(statuses: string[]): [(p: string) => string, unknown] {
  return statuses.length === 1 ? [(p) => `m.status = ${p}`, statuses[0]] : [(p) => `m.status = ANY(${p}::text[])`, statuses];
}
