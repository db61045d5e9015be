import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { ComposableMessage } from './outgoing-mail-of';
import { deliveryOrder } from './recipients';

/** What a claim reads of each message beyond its fields, in the claim's own statement (`m`: the message). */
export const CLAIMED_CONTENT_COLUMNS = {
  mime: '(SELECT mm.content FROM message_mime mm WHERE mm.message_id = m.id)',
  hasAttachments: 'EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = m.id)',
};

/**
 * The recipient rows (message_id, user_id, email: the address key, bulk: whether the message has a
 * bulkSendingId) of the messages whose ids `messageIds` (SQL) holds: a piece for another
 * context's statement to join (the suppression look-up of a claim), so that it stays one round trip.
 */
export function recipientRowsSql(messageIds: string): string {
  return `SELECT r.message_id, r.user_id, r.email, m.bulk_sending_id IS NOT NULL AS bulk
    FROM messages m JOIN message_recipients r ON r.message_id = m.id
    WHERE m.id = ANY(${messageIds})`;
}

/** What delivery reads of the messages it claims, in the claim's transaction. */
@Injectable()
export class DeliverableContentRepository {
  /** Stored messages' recipients in delivery order (to, cc, bcc, as given), with their owner and whether they are bulk mail. */
  async recipientsOf(
    manager: EntityManager,
    messageIds: string[],
  ): Promise<Map<string, { userId: string; bulk: boolean; entries: string[] }>> {
    if (messageIds.length === 0) return new Map();
    const rows: {
      id: string;
      user_id: string;
      bulk: boolean;
      recipients: string[];
      cc: string[] | null;
      bcc: string[] | null;
    }[] = await manager.query(
      `SELECT id, user_id, bulk_sending_id IS NOT NULL AS bulk, recipients, cc, bcc FROM messages WHERE id = ANY($1::uuid[])`,
      [messageIds],
    );
    return new Map(rows.map((row) => [row.id, { userId: row.user_id, bulk: row.bulk, entries: deliveryOrder(row) }]));
  }

  /** The attachments of the given messages, in their order, by message; those without any are absent. */
  async attachmentsOf(
    manager: EntityManager,
    messageIds: string[],
  ): Promise<Map<string, ComposableMessage['attachments']>> {
    const byMessage = new Map<string, ComposableMessage['attachments']>();
    if (messageIds.length === 0) return byMessage;
    // Raw: every claim reads it, and the stored attachment's bytes come in the same row, without entity mapping.
    const rows: {
      message_id: string;
      file_name: string;
      content_type: string;
      content: Buffer;
      content_id: string | null;
    }[] = await manager.query(
      `SELECT ma.message_id, ma.file_name, ma.content_type, coalesce(ma.content, a.content) AS content, ma.content_id
       FROM message_attachments ma LEFT JOIN attachments a ON a.id = ma.attachment_id
       WHERE ma.message_id = ANY($1::uuid[]) ORDER BY ma.message_id, ma.position`,
      [messageIds],
    );
    for (const row of rows) {
      const list = byMessage.get(row.message_id) ?? [];
      list.push({
        fileName: row.file_name,
        contentType: row.content_type,
        content: row.content,
        contentId: row.content_id,
      });
      byMessage.set(row.message_id, list);
    }
    return byMessage;
  }
}
