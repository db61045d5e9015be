import { Injectable } from '@nestjs/common';
import { Reads } from '../platform/database/replica/reads';
import { SqlConditions } from '../platform/database/sql-conditions';
import { GivenFields, rowColumns, RowFields } from './message-fields';
import type { MessageStatus } from './message-status';

/** A message as lists and look-ups read it: everything but the body and the attachments. */
export type MessageRow = RowFields;

export interface StatusEventRow {
  messageId: string;
  status: MessageStatus;
  at: Date;
  detail: string | null;
  /** The recipient a per-recipient event is about, or null. */
  recipient: string | null;
  /** True for an entry that changed no status (MessageLifecycle.note). */
  note: boolean;
}

export interface MessageFilter {
  startDate?: Date;
  endDate?: Date;
  senderId?: string;
  /** Lower-cased. */
  recipient?: string;
  statuses?: MessageStatus[];
  bulkSendingId?: string;
  /** Free text in the subject or a recipient (the `q` filter). */
  text?: string;
}

/** A message to accept: its fields (MESSAGE_FIELDS), and what accept() writes besides its row. */
export interface NewMessage extends GivenFields {
  /** The sender's addressKey(). */
  senderKey: string;
  /** The address key of every recipient, to, cc and bcc, each once. */
  recipientKeys: string[];
  /** Inline ones carry their bytes; stored ones name the attachment that holds them. */
  attachments: {
    id: string;
    fileName: string;
    contentType: string;
    size: number;
    content: Buffer | null;
    /** An inline image's Content-ID; null: an ordinary attachment. */
    contentId: string | null;
    attachmentId: string | null;
  }[];
  /** The message as submitted over SMTP, sent as it is; absent: composed from the fields. */
  mime?: Buffer;
}

const SELECTED_COLUMNS = rowColumns('m');
// Below this skip, reading the skipped rows costs no more than planning the join that avoids them
// (on the bench's million-message user: 0.5 against 0.7 ms for the first page, about even at a
// skip of 1,000).
const DEFERRED_JOIN_FROM_SKIP = 1_000;

/**
 * Every read takes the owner's user id and filters on it, so that no method can return another
 * user's message by mistake; an API request's reads may run on the replica (Reads).
 */
@Injectable()
export class MessagesRepository {
  constructor(private readonly reads: Reads) {}

  async getById(userId: string, id: string): Promise<MessageRow | undefined> {
    return this.reads.findOne<MessageRow>(
      userId,
      `SELECT ${SELECTED_COLUMNS} FROM messages m WHERE m.user_id = $1 AND m.id = $2`,
      [userId, id],
    );
  }

  async count(userId: string, filter: MessageFilter): Promise<number> {
    const { where, params } = whereClause(userId, filter);
    const [{ count }] = await this.reads.query<{ count: number }>(
      userId,
      `SELECT count(*)::int AS count FROM messages m WHERE ${where}`,
      params,
    );
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
      return this.reads.query(
        userId,
        `SELECT ${SELECTED_COLUMNS} FROM messages m WHERE ${where}
         ORDER BY m.sent_at DESC, m.id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
        [...params, skip, take],
      );
    }
    const { from, where, params } = pageSource(userId, filter);
    return this.reads.query(
      userId,
      `SELECT ${SELECTED_COLUMNS} FROM (
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
    const rows: StatusEventRow[] = await this.reads.query(
      userId,
      `SELECT e.message_id AS "messageId", e.status, e.at, e.detail, e.recipient, e.note
       FROM message_status_events e JOIN messages m ON m.id = e.message_id
       WHERE m.user_id = $1 AND e.message_id = ANY($2::uuid[])
       ORDER BY e.message_id, e.id`,
      [userId, messageIds],
    );
    for (const row of rows) histories.get(row.messageId)!.push(row);
    return histories;
  }
}

function pageSource(userId: string, filter: MessageFilter) {
  if (!filter.recipient)
    return { from: { tables: 'messages m', key: 'm.id', time: 'm.sent_at' }, ...whereClause(userId, filter) };
  const conditions = new SqlConditions()
    .add((p) => `r.user_id = ${p}`, userId)
    .add((p) => `r.email = ${p}`, filter.recipient);
  if (filter.startDate) conditions.add((p) => `r.sent_at >= ${p}`, filter.startDate);
  if (filter.endDate) conditions.add((p) => `r.sent_at <= ${p}`, filter.endDate);
  const joinsMessages = Boolean(filter.senderId || filter.statuses || filter.bulkSendingId || filter.text);
  if (filter.senderId) conditions.add((p) => `m.sender_id = ${p}`, filter.senderId);
  if (filter.statuses) conditions.add(...statusCondition(filter.statuses));
  if (filter.bulkSendingId) conditions.add((p) => `m.bulk_sending_id = ${p}`, filter.bulkSendingId);
  if (filter.text) conditions.add(...textCondition(filter.text));
  const tables = joinsMessages ? 'message_recipients r JOIN messages m ON m.id = r.message_id' : 'message_recipients r';
  return { from: { tables, key: 'r.message_id', time: 'r.sent_at' }, ...conditions.clause() };
}

function whereClause(userId: string, filter: MessageFilter): { where: string; params: unknown[] } {
  const conditions = new SqlConditions().add((p) => `m.user_id = ${p}`, userId);
  if (filter.startDate) conditions.add((p) => `m.sent_at >= ${p}`, filter.startDate);
  if (filter.endDate) conditions.add((p) => `m.sent_at <= ${p}`, filter.endDate);
  if (filter.senderId) conditions.add((p) => `m.sender_id = ${p}`, filter.senderId);
  if (filter.statuses) conditions.add(...statusCondition(filter.statuses));
  if (filter.bulkSendingId) conditions.add((p) => `m.bulk_sending_id = ${p}`, filter.bulkSendingId);
  if (filter.text) conditions.add(...textCondition(filter.text));
  if (filter.recipient) {
    conditions.add(
      (p) =>
        `EXISTS (SELECT 1 FROM message_recipients r WHERE r.user_id = $1 AND r.email = ${p} AND r.message_id = m.id)`,
      filter.recipient,
    );
  }
  return conditions.clause();
}

/**
 * One status is compared for equality, so that the (user, status, time) index hands its rows over
 * in order; with ANY, PostgreSQL walks the user's newest messages and filters them, which for a
 * rare status means thousands of rows per page.
 */
function statusCondition(statuses: string[]): [(p: string) => string, unknown] {
  return statuses.length === 1
    ? [(p) => `m.status = ${p}`, statuses[0]]
    : [(p) => `m.status = ANY(${p}::text[])`, statuses];
}

/**
 * The subject and recipients containing `text`, case-insensitively: the expression of the trigram
 * index ix_messages_search (migration MessageSearch1765296000000), word for word, so that the
 * planner can use it; LIKE's own wildcards in the text are matched as themselves.
 */
function textCondition(text: string): [(p: string) => string, unknown] {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return [(p) => `message_search_text(m.subject, m.recipients, m.cc, m.bcc) ILIKE ${p}`, pattern];
}
