import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { MovedMessage } from '../messages';
import type { TargetOf } from '../messages';
import type { FateChange } from '../messages';
import { CLAIMED_FIELD_COLUMNS, ClaimedFields } from '../messages';
import type { ComposableMessage } from '../messages';
import { recipientPositions } from './recipient-positions';
import type { SealedSigningKey } from '../deliverability';
import { CLAIMED_CONTENT_COLUMNS, DeliverableContentRepository } from '../messages';

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
  ...CLAIMED_CONTENT_COLUMNS,
};

export type DeliveryStatus = TargetOf<'finish'>;

export interface FinishedAttempt {
  messageId: string;
  attempt: number;
  status: DeliveryStatus;
  detail: string;
  /** What the attempt did to each recipient it tried. */
  fates: FateChange[];
  /** Address keys the relay refused as not existing (docs/delivery-and-deliverability.md): suppressed as hard_bounce with the outcome. */
  hardBounces: string[];
}

/** The content of claimed messages; their status changes are the lifecycle's (MessageLifecycle). */
@Injectable()
export class DeliveryRepository {
  constructor(private readonly content: DeliverableContentRepository) {}

  /** The claimed messages as the mailer needs them: with their attachments, read only for those that have some. */
  async deliverable(manager: EntityManager, claimed: (MovedMessage & ClaimedColumns)[]): Promise<DeliverableMessage[]> {
    const attachments = await this.content.attachmentsOf(
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
  recipientsOf(
    manager: EntityManager,
    messageIds: string[],
  ): Promise<Map<string, { userId: string; bulk: boolean; entries: string[] }>> {
    return this.content.recipientsOf(manager, messageIds);
  }
}
