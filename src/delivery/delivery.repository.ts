import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { MessagePriority, MessageStatus } from '../messages/message-status';

/** What a delivery needs of a stored message. */
export interface DeliverableMessage {
  id: string;
  sender: string;
  recipients: string[];
  subject: string;
  html: string;
  priority: MessagePriority;
  sentAt: Date;
  attachments: { fileName: string; contentType: string; content: Buffer }[];
}

export type DeliveryOutcome = Extract<MessageStatus, 'sent' | 'deferred' | 'failed'>;

/**
 * The status changes of delivery (SPEC §5), each guarded in SQL by the status it leaves and the
 * attempt it belongs to, so that a duplicate or late job can neither move a message backwards
 * nor out of a final state. Every change appends to the status history in the same statement.
 */
@Injectable()
export class DeliveryRepository {
  /** queued/deferred → sending for attempt `attempt` (or sending again, when its worker died). */
  async claim(manager: EntityManager, messageId: string, attempt: number): Promise<DeliverableMessage | undefined> {
    const [row] = await this.transition(manager, messageId, {
      to: 'sending',
      detail: attempt > 1 ? `attempt ${attempt}` : null,
      where: `status IN ('queued', 'deferred', 'sending') AND delivery_attempts IN ($4::int - 1, $4::int)`,
      set: 'delivery_attempts = $4::int',
      attempt,
      returning: 'id, sender, recipients, subject, html, priority, sent_at',
    });
    if (!row) return undefined;
    const attachments = await manager.query(
      `SELECT file_name, content_type, content FROM message_attachments WHERE message_id = $1 ORDER BY position`,
      [messageId],
    );
    return {
      id: row.id,
      sender: row.sender,
      recipients: row.recipients,
      subject: row.subject,
      html: row.html,
      priority: row.priority,
      sentAt: row.sent_at,
      attachments: attachments.map((a: { file_name: string; content_type: string; content: Buffer }) => ({
        fileName: a.file_name,
        contentType: a.content_type,
        content: a.content,
      })),
    };
  }

  /** sending → sent, deferred or failed, for the attempt that is sending. False when it was not. */
  async finish(manager: EntityManager, messageId: string, attempt: number, to: DeliveryOutcome, detail: string): Promise<boolean> {
    const rows = await this.transition(manager, messageId, {
      to,
      detail,
      where: `status = 'sending' AND delivery_attempts = $4::int`,
      attempt,
      returning: 'id',
    });
    return rows.length === 1;
  }

  private async transition(
    manager: EntityManager,
    messageId: string,
    change: { to: MessageStatus; detail: string | null; where: string; set?: string; attempt: number; returning: string },
  ): Promise<Record<string, any>[]> {
    return manager.query(
      `WITH moved AS (
         UPDATE messages SET status = $2, updated_at = clock_timestamp()${change.set ? `, ${change.set}` : ''}
         WHERE id = $1 AND ${change.where}
         RETURNING ${change.returning}
       ), logged AS (
         INSERT INTO message_status_events (message_id, status, at, detail)
         SELECT id, $2, date_trunc('milliseconds', clock_timestamp()), $3 FROM moved
       )
       SELECT * FROM moved`,
      [messageId, change.to, change.detail, change.attempt],
    );
  }
}
