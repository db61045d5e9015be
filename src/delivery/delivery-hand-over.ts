import { Injectable } from '@nestjs/common';
import { VerpAddresses } from '../deliverability';
import { AppConfig } from '../platform/config/app-config';
import { SigningKeys } from '../deliverability';
import { CopiesProgress, DeliveryJob } from '../platform/queue/delivery-queue';
import { QueueJob } from '../platform/queue/job-queue';
import { UnsubscribeHeaders } from '../deliverability';
import { AttemptDecision, AttemptRecipient, decideAttempt, transactionResults } from './attempt-decision';
import { DeliveryRecorder } from './delivery-recorder';
import { DeliverableMessage } from './delivery.repository';
import type { OutgoingMail } from '../messages';
import { Mailer, Transaction } from './mailer/mailer';
import { recipientCopies, sendCopies } from './recipient-copies';
import { recipientKey } from '../messages';
import { addressOf } from '../platform/validation/mailbox';
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

  /**
   * Resolves once the attempt's outcome is committed; calls `replied` once the mail server has
   * answered, before the outcome is written (the worker frees the message's slot then).
   */
  async execute(job: QueueJob<DeliveryJob>, message: DeliverableMessage, replied: () => void): Promise<void> {
    const outcome = await this.handOver(message, job.data.copies);
    replied();
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
   * each copy's envelope sender names its recipient (VERP); other mail as one mail for all, which
   * the mailer hands over as the transactions it makes of it (one, or one per recipient domain).
   * A retry that names the recipients still to go (`progress`) sends those alone: their copies, or
   * one mail whose envelope names them (its headers the message's).
   */
  private async handOver(message: DeliverableMessage, progress: CopiesProgress | undefined): Promise<AttemptDecision> {
    const { retryDelays, concurrency, leaseSeconds } = this.config.delivery;
    // With the stock's sixth (DeliveryWorker), copies start within a third of the lease; the
    // last then has the rest for its send (at most 60 s with the default lease of 120 s).
    const startBy = performance.now() + (leaseSeconds * 1000) / 6;
    const pending = progress && new Set(progress.pending);
    const recipients = deliveryOrder(message)
      .map((entry) => {
        const key = recipientKey(entry);
        return { entry, address: addressOf(entry), key, position: message.positions.get(key)! };
      })
      .filter((r) => !pending || pending.has(r.position));
    const copies = message.bulkSendingId !== null || this.verp.domain !== undefined;
    const mail = outgoingMailOf(message);
    const transactions = await this.transactionsOf(message, mail, recipients, copies, concurrency, startBy);
    return decideAttempt({
      recipients,
      attempt: message.attempt,
      copies,
      progress,
      transactions: transactionResults(transactions, recipients),
      retryDelays,
    });
  }

  private async transactionsOf(
    message: DeliverableMessage,
    mail: OutgoingMail,
    recipients: (AttemptRecipient & { entry: string })[],
    copies: boolean,
    concurrency: number,
    startBy: number,
  ): Promise<Transaction[]> {
    // A retry whose recipients have all been left out since (suppressed) has none to send to.
    if (recipients.length === 0) return [];
    let dkim: OutgoingMail['dkim'];
    try {
      dkim = message.signingKey && this.signingKeys.open(message.signingKey);
    } catch (error) {
      // A key this process cannot decrypt defers every recipient, never sends to one unsigned.
      const addresses = recipients.map((r) => r.address);
      return copies
        ? addresses.map((address) => ({ recipients: [address], result: { error } }))
        : [{ recipients: addresses, result: { error } }];
    }
    if (!copies) {
      const retried = recipients.length < deliveryOrder(message).length;
      return this.mailer.deliver({ ...mail, dkim, ...(retried && { envelopeTo: recipients.map((r) => r.entry) }) });
    }
    const positions = new Set(recipients.map((r) => r.position));
    const each = recipientCopies(
      mail,
      message.positions,
      (position) => this.unsubscribeHeaders.for(message, position),
      (position) => this.verp.envelopeSender({ messageId: message.id, recipient: position }),
    ).filter((copy) => positions.has(copy.copyFor!.position));
    // As many at once as the SMTP pool has connections (WORKER_CONCURRENCY).
    return sendCopies(
      this.mailer,
      each.map((copy) => ({ ...copy, dkim })),
      concurrency,
      startBy,
    );
  }
}
