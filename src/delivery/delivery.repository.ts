import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { MessagePriority, MessageStatus } from '../messages/message-status';

/** What a delivery needs of a stored message. */
export interface DeliverableMessage {
  id: string;
  attempt: number;
  sender: string;
  recipients: string[];
  subject: string;
  html: string;
  priority: MessagePriority;
  sentAt: Date;
  attachments: { fileName: string; contentType: string; content: Buffer }[];
}

export type DeliveryStatus = Extract<MessageStatus, 'sent' | 'deferred' | 'failed'>;

export interface FinishedAttempt {
  messageId: string;
  attempt: number;
  status: DeliveryStatus;
  detail: string;
}

/**
 * The status changes of delivery (SPEC §5), a batch of messages per statement. Each change is
 * guarded in SQL by the status it leaves and the attempt it belongs to, so that a duplicate or
 * late job can neither move a message backwards nor out of a final state, and appends to the
 * status history in the same statement.
 */
@Injectable()
export class DeliveryRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * queued/deferred → sending for the given attempts (or sending again, when the worker of that
   * attempt died). Returns the messages it moved; the others are final or belong to another attempt.
   */
  async claim(attempts: { messageId: string; attempt: number }[]): Promise<DeliverableMessage[]> {
    const rows: (Omit<DeliverableMessage, 'attachments' | 'sentAt'> & { sent_at: Date; has_attachments: boolean })[] =
      await this.dataSource.query(
        `WITH wanted AS (
           SELECT * FROM unnest($1::uuid[], $2::int[]) AS w(message_id, attempt)
         ), moved AS (
           UPDATE messages m SET status = 'sending', delivery_attempts = w.attempt, updated_at = clock_timestamp()
           FROM wanted w
           WHERE m.id = w.message_id AND m.status IN ('queued', 'deferred', 'sending')
             AND m.delivery_attempts IN (w.attempt - 1, w.attempt)
           RETURNING m.id, w.attempt, m.sender, m.recipients, m.subject, m.html, m.priority, m.sent_at
         ), logged AS (
           INSERT INTO message_status_events (message_id, status, at, detail)
           SELECT id, 'sending', date_trunc('milliseconds', clock_timestamp()),
             CASE WHEN attempt > 1 THEN 'attempt ' || attempt END
           FROM moved
         )
         SELECT moved.*, EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = moved.id) AS has_attachments
         FROM moved`,
        [attempts.map((a) => a.messageId), attempts.map((a) => a.attempt)],
      );
    const attachments = await this.attachmentsOf(rows.filter((r) => r.has_attachments).map((r) => r.id));
    return rows.map(({ sent_at, has_attachments: _, ...row }) => ({ ...row, sentAt: sent_at, attachments: attachments.get(row.id) ?? [] }));
  }

  /** sending → sent, deferred or failed, for the attempts still sending. Returns the ids it moved. */
  async finish(manager: EntityManager, finished: FinishedAttempt[]): Promise<Set<string>> {
    const rows: { id: string }[] = await manager.query(
      `WITH outcome AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[]) AS o(message_id, attempt, status, detail)
       ), moved AS (
         UPDATE messages m SET status = o.status, updated_at = clock_timestamp()
         FROM outcome o
         WHERE m.id = o.message_id AND m.status = 'sending' AND m.delivery_attempts = o.attempt
         RETURNING m.id, o.status, o.detail
       ), logged AS (
         INSERT INTO message_status_events (message_id, status, at, detail)
         SELECT id, status, date_trunc('milliseconds', clock_timestamp()), detail FROM moved
       )
       SELECT id FROM moved`,
      [finished.map((f) => f.messageId), finished.map((f) => f.attempt), finished.map((f) => f.status), finished.map((f) => f.detail)],
    );
    return new Set(rows.map((r) => r.id));
  }

  private async attachmentsOf(messageIds: string[]): Promise<Map<string, DeliverableMessage['attachments']>> {
    const byMessage = new Map<string, DeliverableMessage['attachments']>();
    if (messageIds.length === 0) return byMessage;
    const rows: { message_id: string; file_name: string; content_type: string; content: Buffer }[] = await this.dataSource.query(
      `SELECT message_id, file_name, content_type, content FROM message_attachments
       WHERE message_id = ANY($1::uuid[]) ORDER BY message_id, position`,
      [messageIds],
    );
    for (const row of rows) {
      const list = byMessage.get(row.message_id) ?? [];
      list.push({ fileName: row.file_name, contentType: row.content_type, content: row.content });
      byMessage.set(row.message_id, list);
    }
    return byMessage;
  }
}
