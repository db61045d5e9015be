import { Injectable } from '@nestjs/common';
import { Database } from '../platform/database/database';
import { Reads } from '../platform/database/replica/reads';
import { SqlConditions } from '../platform/database/sql-conditions';
import { EventOutbox } from '../webhooks';
import { listItem } from './inbound-list-item';
import { InboundAttachmentEntity } from './entities/inbound-attachment.entity';
import { InboundMailEntity } from './entities/inbound-mail.entity';

/** A received mail as one user gets it, with its attachments' bytes. */
export type NewInboundMail = Omit<InboundMailEntity, 'raw'> & {
  raw: Buffer;
  attachments: { fileName: string; contentType: string; size: number; content: Buffer }[];
};

/** An attachment as lists show it: everything but its bytes. */
export type InboundAttachmentInfo = Omit<InboundAttachmentEntity, 'content' | 'inbound'>;

export interface InboundFilter {
  startDate?: Date;
  endDate?: Date;
  /** addressKey of the From address. */
  fromEmail?: string;
  /** addressKey of a To, Cc or envelope recipient. */
  toEmail?: string;
}

/** Columns a list or a look-up reads: not the bodies, not the raw bytes. */
const LISTED = `m.id, m.user_id AS "userId", m.received_at AS "receivedAt", m.mail_from AS "mailFrom",
  m.rcpt_to AS "rcptTo", m.from_mailbox AS "fromMailbox", m.from_address AS "fromAddress",
  m.to_mailboxes AS "toMailboxes", m.cc_mailboxes AS "ccMailboxes", m.recipient_addresses AS "recipientAddresses",
  m.subject, m.message_id AS "messageId", m.spf, m.dkim, m.dmarc, m.reply_to_message_id AS "replyToMessageId"`;
const ATTACHMENT_INFO = `a.inbound_id AS "inboundId", a.position, a.file_name AS "fileName",
  a.content_type AS "contentType", a.size`;

/**
 * Received mail (docs/inbound.md); every read takes the owner, so no one reaches another's mail,
 * and an API request's reads may run on the replica (Reads).
 */
@Injectable()
export class InboundRepository {
  constructor(
    private readonly database: Database,
    private readonly reads: Reads,
    private readonly events: EventOutbox,
  ) {}

  /**
   * Stores a received mail for each user it was for, in one transaction: all of them or none, so
   * the listener's 250 (given only after this commits) means every copy is stored.
   */
  /** Bytes of the raw mail the user received after `since` (octet_length reads a stored value's size, not its bytes). */
  async bytesReceivedSince(userId: string, since: Date): Promise<number> {
    const [{ bytes }]: { bytes: string }[] = await this.database.query(
      `SELECT coalesce(sum(octet_length(raw)), 0) AS bytes FROM inbound_mails WHERE user_id = $1 AND received_at > $2`,
      [userId, since],
    );
    return Number(bytes);
  }

  store(mails: NewInboundMail[]): Promise<void> {
    return this.database.transaction(async (manager) => {
      for (const { attachments, ...mail } of mails) {
        await manager.getRepository(InboundMailEntity).insert(mail);
        for (const [position, attachment] of attachments.entries())
          await manager.getRepository(InboundAttachmentEntity).insert({ inboundId: mail.id, position, ...attachment });
        // inbound.received (docs/delivery-and-deliverability.md#webhooks), in the storing transaction: it exists exactly when the mail does.
        const listed = attachments.map(({ fileName, contentType, size }, position) => ({
          inboundId: mail.id,
          position,
          fileName,
          contentType,
          size,
        }));
        await this.events.record(manager, [
          { userId: mail.userId, type: 'inbound.received', data: { inbound: listItem(mail, listed) } },
        ]);
      }
    });
  }

  async count(userId: string, filter: InboundFilter): Promise<number> {
    const { where, params } = whereClause(userId, filter);
    const [{ count }] = await this.reads.query<{ count: number }>(
      userId,
      `SELECT count(*)::int AS count FROM inbound_mails m WHERE ${where}`,
      params,
    );
    return count;
  }

  /** Newest first, ties broken by id, so that pages never overlap or skip. */
  list(userId: string, filter: InboundFilter, skip: number, take: number): Promise<InboundMailEntity[]> {
    const { where, params } = whereClause(userId, filter);
    return this.reads.query<InboundMailEntity>(
      userId,
      `SELECT ${LISTED} FROM inbound_mails m WHERE ${where}
       ORDER BY m.received_at DESC, m.id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, skip, take],
    );
  }

  /** One mail with its header fields, text and HTML. */
  async get(userId: string, id: string): Promise<InboundMailEntity | undefined> {
    return this.reads.findOne<InboundMailEntity>(
      userId,
      `SELECT ${LISTED}, m.headers, m.text, m.html FROM inbound_mails m WHERE m.user_id = $1 AND m.id = $2`,
      [userId, id],
    );
  }

  async raw(userId: string, id: string): Promise<Buffer | undefined> {
    const row = await this.reads.findOne<{ raw: Buffer }>(
      userId,
      `SELECT raw FROM inbound_mails WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return row?.raw;
  }

  /** The attachments of several of the user's mails, each mail's in order. */
  async attachmentsOf(userId: string, inboundIds: string[]): Promise<Map<string, InboundAttachmentInfo[]>> {
    const found = new Map<string, InboundAttachmentInfo[]>(inboundIds.map((id) => [id, []]));
    if (inboundIds.length === 0) return found;
    const rows = await this.reads.query<InboundAttachmentInfo>(
      userId,
      `SELECT ${ATTACHMENT_INFO} FROM inbound_attachments a JOIN inbound_mails m ON m.id = a.inbound_id
       WHERE m.user_id = $1 AND a.inbound_id = ANY($2::uuid[]) ORDER BY a.inbound_id, a.position`,
      [userId, inboundIds],
    );
    for (const row of rows) found.get(row.inboundId)!.push(row);
    return found;
  }

  /** One attachment with its bytes, of the user's mail only. */
  async attachment(
    userId: string,
    inboundId: string,
    position: number,
  ): Promise<(InboundAttachmentInfo & { content: Buffer }) | undefined> {
    return this.reads.findOne<InboundAttachmentInfo & { content: Buffer }>(
      userId,
      `SELECT ${ATTACHMENT_INFO}, a.content FROM inbound_attachments a
       JOIN inbound_mails m ON m.id = a.inbound_id
       WHERE m.user_id = $1 AND a.inbound_id = $2 AND a.position = $3`,
      [userId, inboundId, position],
    );
  }

  /** Deletes up to `limit` mails received before `before`, oldest first, with their attachments; returns how many. */
  async purge(before: Date, limit: number): Promise<number> {
    return this.database.rowsChanged(
      `DELETE FROM inbound_mails WHERE id IN (
         SELECT id FROM inbound_mails WHERE received_at < $1 ORDER BY received_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
      [before, limit],
    );
  }
}

function whereClause(userId: string, filter: InboundFilter): { where: string; params: unknown[] } {
  const conditions = new SqlConditions().add((p) => `m.user_id = ${p}`, userId);
  if (filter.startDate) conditions.add((p) => `m.received_at >= ${p}`, filter.startDate);
  if (filter.endDate) conditions.add((p) => `m.received_at <= ${p}`, filter.endDate);
  if (filter.fromEmail) conditions.add((p) => `m.from_address = ${p}`, filter.fromEmail);
  if (filter.toEmail) conditions.add((p) => `${p} = ANY(m.recipient_addresses)`, filter.toEmail);
  return conditions.clause();
}
