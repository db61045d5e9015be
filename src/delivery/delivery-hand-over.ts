import { Injectable } from '@nestjs/common';
import { VerpAddresses } from '../deliverability';
import { AppConfig } from '../platform/config/app-config';
import { SigningKeys } from '../deliverability';
import { CopiesProgress, DeliveryJob } from '../platform/queue/delivery-queue';
import { QueueJob } from '../platform/queue/job-queue';
import { UnsubscribeHeaders } from '../deliverability';
import { CopiesOutcome, copiesOutcome } from './copies-outcome';
import { DeliveryRecorder } from './delivery-recorder';
import { deliveryRetryPolicy, HandOverResult } from './delivery-retry-policy';
import { DeliverableMessage } from './delivery.repository';
import type { OutgoingMail } from '../messages';
import { Mailer, Refusal } from './mailer/mailer';
import { recipientCopies, sendCopies } from './recipient-copies';
import { asCopyResults, copyOutcomes, RecipientOutcomes, refusalsOf, wholeOutcomes } from './recipient-outcomes';
import { deliveryOrder } from '../messages';
import { outgoingMailOf } from '../messages';

/**
 * One attempt at a claimed message: hand it to the mailer, decide what the reply comes to on
 * DELIVERY_RETRY_DELAYS (docs/delivery-and-deliverability.md#statuses), and record it with its job's completion and any next attempt.
 */
@Injectable()
export class DeliveryHandOver {
  constructor(
    private readonly config: AppConfig,
    private readonly mailer: Mailer,
    private readonly recorder: DeliveryRecorder,
    private readonly unsubscribeHeaders: UnsubscribeHeaders,
    private readonly verp: VerpAddresses,
    private readonly signingKeys: SigningKeys,
  ) {}

  /** Resolves once the attempt's outcome is committed. */
  async execute(job: QueueJob<DeliveryJob>, message: DeliverableMessage): Promise<void> {
    const outcome = await this.handOver(message, job.data.copies);
    await this.recorder.record({
      jobId: job.id,
      repliedAt: performance.now(),
      finished: {
        messageId: message.id,
        userId: message.userId,
        attempt: message.attempt,
        priority: message.priority,
        sentAt: message.sentAt,
        ...outcome,
      },
    });
  }

  /**
   * Bulk mail goes out as one SMTP transaction per recipient, since each copy carries the
   * recipient's own List-Unsubscribe (docs/delivery-and-deliverability.md), and so does all mail with BOUNCE_DOMAIN set, since
   * each copy's envelope sender names its recipient (VERP); other mail as one transaction for all.
   * A retry that names the copies still to go (`progress`) sends those alone, whatever the
   * configuration has become since.
   */
  private async handOver(
    message: DeliverableMessage,
    progress: CopiesProgress | undefined,
  ): Promise<CopiesOutcome & RecipientOutcomes> {
    const { retryDelays, concurrency, leaseSeconds } = this.config.delivery;
    // With the stock's sixth (DeliveryWorker), copies start within a third of the lease; the
    // last then has the rest for its send (at most 60 s with the default lease of 120 s).
    const startBy = performance.now() + (leaseSeconds * 1000) / 6;
    const mail = outgoingMailOf(message);
    const perCopy = progress !== undefined || message.bulkSendingId !== null || this.verp.domain !== undefined;
    if (!perCopy) {
      const result = await this.sendWhole(mail, message);
      const outcome = deliveryRetryPolicy(result, message.attempt, retryDelays);
      const entries = deliveryOrder(message);
      const refusals = refusalsOf(result);
      if (refusals.some((r) => !r.permanent) && message.attempt <= retryDelays.length) {
        // Some recipients refused for now (452, greylisting), whether the others were accepted or
        // refused too (nodemailer then throws one error with the temporary code): the message is
        // deferred, each recipient judged by its own reply, and the next attempt sends those refused
        // for now alone, one copy each, the others having it already or being refused for good.
        const copies = asCopyResults(entries, message.positions, result);
        const deferred = copiesOutcome(copies, undefined, message.attempt, retryDelays);
        const named = (list: Refusal[]) => list.map((r) => `${r.address} (${r.reply})`).join(', ');
        const [forNow, forGood] = [false, true].map((p) => refusals.filter((r) => r.permanent === p));
        const refused = forGood.length > 0 ? ` (refused: ${named(forGood)})` : '';
        const head = 'receipt' in result ? result.receipt.reply : outcome.detail;
        const detail = `${head} (pending: ${named(forNow)})${refused}`;
        return { ...withCopyOutcomes(copies, deferred, message.attempt), detail };
      }
      return { ...outcome, ...wholeOutcomes(entries, message.positions, result, outcome) };
    }
    const pending = progress && new Set(progress.pending);
    const copies = recipientCopies(
      mail,
      message.positions,
      (position) => this.unsubscribeHeaders.for(message, position),
      (position) => this.verp.envelopeSender({ messageId: message.id, recipient: position }),
    ).filter((copy) => !pending || pending.has(copy.copyFor!.position));
    let dkim: OutgoingMail['dkim'];
    try {
      dkim = this.openSigningKey(message);
    } catch (error) {
      // A key this process cannot decrypt defers every copy, never sends one unsigned.
      const failed = copies.map(({ copyFor }) => ({
        address: copyFor!.address,
        position: copyFor!.position,
        result: { error },
      }));
      return withCopyOutcomes(failed, copiesOutcome(failed, progress, message.attempt, retryDelays), message.attempt);
    }
    // As many at once as the SMTP pool has connections (WORKER_CONCURRENCY).
    const results = await sendCopies(
      this.mailer,
      copies.map((copy) => ({ ...copy, dkim })),
      concurrency,
      startBy,
    );
    return withCopyOutcomes(results, copiesOutcome(results, progress, message.attempt, retryDelays), message.attempt);
  }

  private async sendWhole(mail: OutgoingMail, message: DeliverableMessage): Promise<HandOverResult> {
    try {
      // Opened inside the try: a key this process cannot decrypt defers the message, never sends it unsigned.
      mail.dkim = this.openSigningKey(message);
      return { receipt: await this.mailer.send(mail) };
    } catch (error) {
      return { error };
    }
  }

  private openSigningKey(message: DeliverableMessage): OutgoingMail['dkim'] {
    return message.signingKey && this.signingKeys.open(message.signingKey);
  }
}

function withCopyOutcomes(
  results: Parameters<typeof copyOutcomes>[0],
  outcome: CopiesOutcome,
  attempt: number,
): CopiesOutcome & RecipientOutcomes {
  return { ...outcome, ...copyOutcomes(results, outcome, attempt) };
}
