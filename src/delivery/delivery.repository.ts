import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { MessagePriority, MessageStatus } from '../messages/message-status';
import { webhookEventsCte } from '../webhooks/webhook-events.sql';

/** What the webhook events CTE reads of each moved message. */
const sourceColumns = (alias: string) =>
  ['user_id', 'status', 'status_changes', 'webhook_url', 'webhook_statuses'].map((c) => `${alias}.${c}`).join(', ');

/** What a delivery needs of a stored message. */
export interface DeliverableMessage {
  id: string;
  userId: string;
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
  /**
   * queued/deferred → sending for the attempt that follows the last one, or sending again for the
   * same attempt (its job came back: its worker died, or outlived the lease). Returns the messages
   * it moved; the others are final or belong to another attempt.
   */
  async claim(
    manager: EntityManager,
    attempts: { messageId: string; attempt: number }[],
  ): Promise<{ messages: DeliverableMessage[]; webhookEventIds: string[] }> {
    const rows: (Omit<DeliverableMessage, 'attachments' | 'sentAt'> & { sent_at: Date; has_attachments: boolean; webhook_event_id: string | null })[] =
      await manager.query(
        `WITH wanted AS (
           SELECT * FROM unnest($1::uuid[], $2::int[]) AS w(message_id, attempt)
         ), moved AS (
           UPDATE messages m SET status = 'sending', delivery_attempts = w.attempt, status_changes = m.status_changes + 1,
             updated_at = clock_timestamp()
           FROM wanted w
           WHERE m.id = w.message_id
             AND ((m.status IN ('queued', 'deferred') AND m.delivery_attempts = w.attempt - 1)
               OR (m.status = 'sending' AND m.delivery_attempts = w.attempt))
           RETURNING m.id, w.attempt, m.sender, m.recipients, m.subject, m.html, m.priority, m.sent_at, ${sourceColumns('m')}
         ), logged AS (
           INSERT INTO message_status_events (message_id, status, at, detail)
           SELECT id, 'sending', date_trunc('milliseconds', clock_timestamp()),
             CASE WHEN attempt > 1 THEN 'attempt ' || attempt END
           FROM moved
         ), ${webhookEventsCte('moved')}
         SELECT moved.id, moved.user_id AS "userId", moved.attempt, moved.sender, moved.recipients, moved.subject, moved.html, moved.priority, moved.sent_at,
           EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = moved.id) AS has_attachments,
           w.id AS webhook_event_id
         FROM moved LEFT JOIN webhook_events_created w ON w.message_id = moved.id`,
        [attempts.map((a) => a.messageId), attempts.map((a) => a.attempt)],
      );
    const attachments = await this.attachmentsOf(manager, rows.filter((r) => r.has_attachments).map((r) => r.id));
    return {
      messages: rows.map(({ sent_at, has_attachments: _, webhook_event_id: __, ...row }) => ({
        ...row,
        sentAt: sent_at,
        attachments: attachments.get(row.id) ?? [],
      })),
      webhookEventIds: rows.flatMap((r) => (r.webhook_event_id ? [r.webhook_event_id] : [])),
    };
  }

  /** sending → sent, deferred or failed, for the attempts still sending. Returns the ids it moved. */
  async finish(manager: EntityManager, finished: FinishedAttempt[]): Promise<{ moved: Set<string>; webhookEventIds: string[] }> {
    const rows: { id: string; webhook_event_id: string | null }[] = await manager.query(
      `WITH outcome AS (
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[]) AS o(message_id, attempt, status, detail)
       ), moved AS (
         UPDATE messages m SET status = o.status, status_changes = m.status_changes + 1, updated_at = clock_timestamp()
         FROM outcome o
         WHERE m.id = o.message_id AND m.status = 'sending' AND m.delivery_attempts = o.attempt
         RETURNING m.id, o.detail, ${sourceColumns('m')}
       ), logged AS (
         INSERT INTO message_status_events (message_id, status, at, detail)
         SELECT id, status, date_trunc('milliseconds', clock_timestamp()), detail FROM moved
       ), ${webhookEventsCte('moved')}
       SELECT moved.id, w.id AS webhook_event_id FROM moved LEFT JOIN webhook_events_created w ON w.message_id = moved.id`,
      [finished.map((f) => f.messageId), finished.map((f) => f.attempt), finished.map((f) => f.status), finished.map((f) => f.detail)],
    );
    return {
      moved: new Set(rows.map((r) => r.id)),
      webhookEventIds: rows.flatMap((r) => (r.webhook_event_id ? [r.webhook_event_id] : [])),
    };
  }

  private async attachmentsOf(manager: EntityManager, messageIds: string[]): Promise<Map<string, DeliverableMessage['attachments']>> {
    const byMessage = new Map<string, DeliverableMessage['attachments']>();
    if (messageIds.length === 0) return byMessage;
    const rows: { message_id: string; file_name: string; content_type: string; content: Buffer }[] = await manager.query(
      `SELECT ma.message_id, ma.file_name, ma.content_type, coalesce(ma.content, a.content) AS content
       FROM message_attachments ma LEFT JOIN attachments a ON a.id = ma.attachment_id
       WHERE ma.message_id = ANY($1::uuid[]) ORDER BY ma.message_id, ma.position`,
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
