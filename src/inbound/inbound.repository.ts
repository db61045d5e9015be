import { Injectable } from '@nestjs/common';
import { Database } from '../platform/database/database';
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
const LISTED: (keyof InboundMailEntity)[] = [
  'id',
  'userId',
  'receivedAt',
  'mailFrom',
  'rcptTo',
  'fromMailbox',
  'fromAddress',
  'toMailboxes',
  'ccMailboxes',
  'recipientAddresses',
  'subject',
  'messageId',
  'spf',
  'dkim',
  'dmarc',
  'replyToMessageId',
];

/** Received mail (docs/inbound.md); every read takes the owner, so no one reaches another's mail. */
@Injectable()
export class InboundRepository {
  constructor(
    private readonly database: Database,
    private readonly events: EventOutbox,
  ) {}

  private get mails() {
    return this.database.repository(InboundMailEntity);
  }

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

  count(userId: string, filter: InboundFilter): Promise<number> {
    return this.filtered(userId, filter).getCount();
  }

  /** Newest first, ties broken by id, so that pages never overlap or skip. */
  list(userId: string, filter: InboundFilter, skip: number, take: number): Promise<InboundMailEntity[]> {
    return this.filtered(userId, filter)
      .select(LISTED.map((column) => `m.${column}`))
      .orderBy('m.receivedAt', 'DESC')
      .addOrderBy('m.id', 'DESC')
      .offset(skip)
      .limit(take)
      .getMany();
  }

  /** One mail with its header fields, text and HTML. */
  async get(userId: string, id: string): Promise<InboundMailEntity | undefined> {
    return (
      (await this.mails.findOne({
        select: [...LISTED, 'headers', 'text', 'html'],
        where: { userId, id },
      })) ?? undefined
    );
  }

  async raw(userId: string, id: string): Promise<Buffer | undefined> {
    const rows: { raw: Buffer }[] = await this.database.query(
      `SELECT raw FROM inbound_mails WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    return rows[0]?.raw;
  }

  /** The attachments of several mails, each mail's in order. */
  async attachmentsOf(inboundIds: string[]): Promise<Map<string, InboundAttachmentInfo[]>> {
    const found = new Map<string, InboundAttachmentInfo[]>(inboundIds.map((id) => [id, []]));
    if (inboundIds.length === 0) return found;
    const rows = await this.database.repository(InboundAttachmentEntity).find({
      select: ['inboundId', 'position', 'fileName', 'contentType', 'size'],
      where: inboundIds.map((inboundId) => ({ inboundId })),
      order: { inboundId: 'ASC', position: 'ASC' },
    });
    for (const row of rows) found.get(row.inboundId)!.push(row);
    return found;
  }

  /** One attachment with its bytes, of the user's mail only. */
  async attachment(
    userId: string,
    inboundId: string,
    position: number,
  ): Promise<(InboundAttachmentInfo & { content: Buffer }) | undefined> {
    const rows: { file_name: string; content_type: string; size: number; content: Buffer }[] =
      await this.database.query(
        `SELECT a.file_name, a.content_type, a.size, a.content FROM inbound_attachments a
       JOIN inbound_mails m ON m.id = a.inbound_id
       WHERE m.user_id = $1 AND a.inbound_id = $2 AND a.position = $3`,
        [userId, inboundId, position],
      );
    const row = rows[0];
    return (
      row && {
        inboundId,
        position,
        fileName: row.file_name,
        contentType: row.content_type,
        size: row.size,
        content: row.content,
      }
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

  private filtered(userId: string, filter: InboundFilter) {
    const query = this.mails.createQueryBuilder('m').where('m.userId = :userId', { userId });
    if (filter.startDate) query.andWhere('m.receivedAt >= :startDate', { startDate: filter.startDate });
    if (filter.endDate) query.andWhere('m.receivedAt <= :endDate', { endDate: filter.endDate });
    if (filter.fromEmail) query.andWhere('m.fromAddress = :fromEmail', { fromEmail: filter.fromEmail });
    if (filter.toEmail) query.andWhere(':toEmail = ANY(m.recipientAddresses)', { toEmail: filter.toEmail });
    return query;
  }
}
