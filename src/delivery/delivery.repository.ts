import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { MovedMessage } from '../messages/lifecycle/message-lifecycle.repository';
import type { TargetOf } from '../messages/lifecycle/transitions';
import type { FateChange } from '../messages/recipient-fates';
import { CLAIMED_FIELD_COLUMNS, ClaimedFields } from '../messages/message-fields';
import type { ComposableMessage } from '../messages/outgoing-mail-of';
import { recipientPositions } from './recipient-positions';
import { deliveryOrder } from '../messages/recipients';
import type { SealedSigningKey } from '../deliverability/domains/signing-keys';

/** What a delivery needs of a stored message: the fields the claim reads (MESSAGE_FIELDS), and more. */
export interface DeliverableMessage extends ComposableMessage {
  userId: string;
  attempt: number;
  /** Each recipient's position (by address key) among the stored to, cc and bcc, kept when suppressed ones are skipped. */
  positions: ReadonlyMap<string, number>;
  /** The key of the sender's verified domain, found at the claim; absent: sent unsigned. */
  signingKey?: SealedSigningKey;
}

/** What the claim reads of each message it moves, in its own statement (MessageLifecycle.claim). */
export type ClaimedColumns = ClaimedFields & Pick<DeliverableMessage, 'mime'> & { hasAttachments: boolean };
export const CLAIMED_COLUMNS: Record<keyof ClaimedColumns, string> = {
  ...CLAIMED_FIELD_COLUMNS,
  mime: '(SELECT mm.content FROM message_mime mm WHERE mm.message_id = m.id)',
  hasAttachments: 'EXISTS (SELECT 1 FROM message_attachments a WHERE a.message_id = m.id)',
};

export type DeliveryStatus = TargetOf<'finish'>;

export interface FinishedAttempt {
  messageId: string;
  attempt: number;
  status: DeliveryStatus;
  detail: string;
  /** What the attempt did to each recipient it tried. */
  fates: FateChange[];
  /** Address keys the relay refused as not existing (SPEC §9): suppressed as hard_bounce with the outcome. */
  hardBounces: string[];
}

/** The content of claimed messages; their status changes are the lifecycle's (MessageLifecycle). */
@Injectable()
export class DeliveryRepository {
  /** The claimed messages as the mailer needs them: with their attachments, read only for those that have some. */
  async deliverable(manager: EntityManager, claimed: (MovedMessage & ClaimedColumns)[]): Promise<DeliverableMessage[]> {
    const attachments = await this.attachmentsOf(
      manager,
      claimed.filter((c) => c.hasAttachments).map((c) => c.id),
    );
    // eslint-disable-next-line @typescript-eslint/no-unused-vars -- named only to leave them out of the message
    return claimed.map(({ status, hasAttachments, attempt, ...message }) => ({
      ...message,
      attempt: attempt!,
      positions: recipientPositions(message),
      attachments: attachments.get(message.id) ?? [],
    }));
  }

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

  private async attachmentsOf(
    manager: EntityManager,
    messageIds: string[],
  ): Promise<Map<string, DeliverableMessage['attachments']>> {
    const byMessage = new Map<string, DeliverableMessage['attachments']>();
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
