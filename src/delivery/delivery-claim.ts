import { Injectable } from '@nestjs/common';
import { addressOf } from '../platform/validation/mailbox';
import { Database } from '../platform/database/database';
import { SigningKeys } from '../deliverability';
import { MessageLifecycle } from '../messages';
import { Metrics } from '../platform/metrics/metrics';
import { DeliveryJob, DeliveryQueue } from '../platform/queue/delivery-queue';
import { QueueJob } from '../platform/queue/job-queue';
import { SuppressedRecipients, SuppressionList } from '../deliverability';
import type { FateChange } from '../messages';
import { recipientKey } from '../messages';
import { EntityManager } from 'typeorm';
import { CLAIMED_COLUMNS, ClaimedColumns, DeliverableMessage, DeliveryRepository } from './delivery.repository';
import { suppressedDetail, withoutSuppressed } from './suppressed-recipients';

/** A job whose message the claim took, with what its attempt sends. */
export interface ClaimedJob {
  job: QueueJob<DeliveryJob>;
  message: DeliverableMessage;
}

/**
 * The claim of a batch of delivery jobs (docs/delivery-and-deliverability.md#statuses): which messages they take (→ sending), without
 * their suppressed recipients and with their sender's signing key, ready for the mailer.
 */
@Injectable()
export class DeliveryClaim {
  constructor(
    private readonly database: Database,
    private readonly lifecycle: MessageLifecycle,
    private readonly deliveries: DeliveryRepository,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly suppressionList: SuppressionList,
    private readonly signingKeys: SigningKeys,
    private readonly metrics: Metrics,
  ) {}

  /**
   * Claims the jobs' messages, making scheduled ones due first (scheduled → queued → sending, each
   * with its history entry and webhook). A message whose every recipient is suppressed ends
   * `suppressed` instead; the suppressed recipients of the others are skipped. The claim, the
   * webhook jobs it causes and the completion of the jobs with nothing to deliver (final or
   * canceled, or another attempt's) commit together.
   */
  async claim(jobs: QueueJob<DeliveryJob>[]): Promise<ClaimedJob[]> {
    const { claimed, skipped, ended } = await this.database.transaction(async (manager) => {
      const due = jobs.filter((j) => j.data.scheduled).map((j) => j.data.messageId);
      if (due.length > 0) await this.lifecycle.due(manager, due);
      // The list as it stands when the job takes its message (docs/delivery-and-deliverability.md#statuses): after a scheduled one is due.
      const suppressed = await this.suppressionList.among(
        manager,
        jobs.map((j) => j.data.messageId),
      );
      const fates = await this.suppressedFates(manager, suppressed);
      const allSuppressed = jobs.filter((j) => suppressed.get(j.data.messageId)?.all);
      const { moved: ended } = await this.lifecycle.suppress(
        manager,
        allSuppressed.map(({ data: { messageId, attempt } }) => ({
          messageId,
          attempt,
          detail: suppressedDetail(suppressed.get(messageId)!.keys, true),
          fates: fates.get(messageId)!,
        })),
      );
      const toClaim = jobs
        .filter((j) => !suppressed.get(j.data.messageId)?.all)
        .map(({ data: { messageId, attempt, copies } }) => {
          const skippedKeys = suppressed.get(messageId)?.keys;
          return {
            messageId,
            attempt,
            note: skippedKeys ? suppressedDetail(skippedKeys, false) : null,
            fates: fates.get(messageId),
            // A retry that sends only the copies its job names would never send a recipient
            // released now: one suppressed at the first attempt stays so (docs/delivery-and-deliverability.md#statuses).
            keepSuppressed: copies !== undefined,
          };
        });
      const { moved } = await this.lifecycle.claim<ClaimedColumns>(manager, toClaim, CLAIMED_COLUMNS);
      const deliverable = await this.deliveries.deliverable(manager, moved);
      const signing = await this.signingKeys.lookUp(
        manager,
        deliverable.map((m) => ({ id: m.id, userId: m.userId, senderAddress: addressOf(m.sender) })),
      );
      const messages = deliverable.map((m) => ({
        ...withoutSuppressed(m, suppressed.get(m.id)?.keys ?? []),
        signingKey: signing.get(m.id),
      }));
      const pairs: ClaimedJob[] = [];
      const others: string[] = [];
      for (const job of jobs) {
        const index = messages.findIndex((m) => m.id === job.data.messageId && m.attempt === job.data.attempt);
        if (index >= 0) pairs.push({ job, message: messages.splice(index, 1)[0] });
        else others.push(job.id);
      }
      if (others.length > 0) await this.deliveryQueue.complete(manager, others);
      return { claimed: pairs, skipped: others.length - ended.length, ended: ended.length };
    });
    if (skipped > 0) this.metrics.deliveries.inc({ outcome: 'skipped' }, skipped);
    if (ended > 0) this.metrics.deliveries.inc({ outcome: 'suppressed' }, ended);
    return claimed;
  }

  /**
   * The suppressed recipients of the messages that have some, each with its reason (docs/delivery-and-deliverability.md#statuses): read
   * only for those, which are few. A recipient shown suppressed and taken off the list since goes
   * back to pending in the claim's statement, but on a retry of copies.
   */
  private async suppressedFates(
    manager: EntityManager,
    suppressed: Map<string, SuppressedRecipients>,
  ): Promise<Map<string, FateChange[]>> {
    const fates = new Map<string, FateChange[]>();
    if (suppressed.size === 0) return fates;
    const messages = await this.deliveries.recipientsOf(manager, [...suppressed.keys()]);
    for (const [messageId, { userId, bulk, entries }] of messages) {
      const reasons = await this.suppressionList.suppressedAmong(manager, userId, suppressed.get(messageId)!.keys, {
        bulk,
      });
      fates.set(
        messageId,
        entries.flatMap((entry, position) => {
          const key = recipientKey(entry);
          const reason = reasons.get(key);
          return reason ? [{ position, key, status: 'suppressed' as const, detail: reason }] : [];
        }),
      );
    }
    return fates;
  }
}
