import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { MessageLifecycle } from '../messages/lifecycle/message-lifecycle';
import { CopiesProgress, DeliveryJob, DeliveryQueue } from '../queue/delivery-queue';
import { QueueJob } from '../queue/job-queue';
import { Metrics } from '../metrics/metrics';
import { deliveryRetryPolicy, HandOverResult } from './delivery-retry-policy';
import { CopiesOutcome, copiesOutcome } from './copies-outcome';
import { DeliveryRecorder } from './delivery-recorder';
import { CLAIMED_COLUMNS, ClaimedColumns, DeliverableMessage, DeliveryRepository } from './delivery.repository';
import { Mailer, OutgoingMail } from './mailer/mailer';
import { Database } from '../database/database';
import { SuppressionList } from '../suppressions/suppression-list';
import { suppressedDetail, withoutSuppressed } from './suppressed-recipients';
import { UnsubscribeHeaders } from '../unsubscribe/unsubscribe-headers';
import { recipientCopies, sendCopies } from './recipient-copies';
import { VerpAddresses } from '../bounces/verp-addresses';
import { SigningKeys } from '../domains/signing-keys';
import { addressOf } from '../common/validation/mailbox';

/**
 * Delivery attempts: claim the messages of a batch of jobs (→ sending), hand each to the mailer,
 * and record each outcome with its job's completion and, after a temporary failure, the next
 * attempt on DELIVERY_RETRY_DELAYS (SPEC §5).
 */
@Injectable()
export class DeliverMessageUseCase {
  constructor(
    private readonly database: Database,
    private readonly lifecycle: MessageLifecycle,
    private readonly deliveries: DeliveryRepository,
    private readonly recorder: DeliveryRecorder,
    private readonly mailer: Mailer,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
    private readonly suppressionList: SuppressionList,
    private readonly unsubscribeHeaders: UnsubscribeHeaders,
    private readonly verp: VerpAddresses,
    private readonly signingKeys: SigningKeys,
  ) {}

  /**
   * Claims the jobs' messages, making scheduled ones due first (scheduled → queued → sending, each
   * with its history entry and webhook). A message whose every recipient is suppressed ends
   * `suppressed` instead; the suppressed recipients of the others are skipped. The claim, the webhook jobs it causes and the completion
   * of the jobs with nothing to deliver (final or canceled, or another attempt's) commit together.
   */
  async claim(jobs: QueueJob<DeliveryJob>[]): Promise<{ job: QueueJob<DeliveryJob>; message: DeliverableMessage }[]> {
    const { claimed, skipped, ended } = await this.database.transaction(async (manager) => {
      const due = jobs.filter((j) => j.data.scheduled).map((j) => j.data.messageId);
      if (due.length > 0) await this.lifecycle.due(manager, due);
      // The list as it stands when the job takes its message (SPEC §5): after a scheduled one is due.
      const suppressed = await this.suppressionList.among(
        manager,
        jobs.map((j) => j.data.messageId),
      );
      const allSuppressed = jobs.filter((j) => suppressed.get(j.data.messageId)?.all);
      const { moved: ended } = await this.lifecycle.suppress(
        manager,
        allSuppressed.map(({ data: { messageId, attempt } }) => ({
          messageId,
          attempt,
          detail: suppressedDetail(suppressed.get(messageId)!.keys, true),
        })),
      );
      const toClaim = jobs
        .filter((j) => !suppressed.get(j.data.messageId)?.all)
        .map(({ data: { messageId, attempt } }) => {
          const skippedKeys = suppressed.get(messageId)?.keys;
          return { messageId, attempt, note: skippedKeys ? suppressedDetail(skippedKeys, false) : null };
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
      const pairs: { job: QueueJob<DeliveryJob>; message: DeliverableMessage }[] = [];
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

  /** One attempt at one claimed message; resolves once its outcome is committed. */
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
   * recipient's own List-Unsubscribe (SPEC §9), and so does all mail with BOUNCE_DOMAIN set, since
   * each copy's envelope sender names its recipient (VERP); other mail as one transaction for all.
   * A retry that names the copies still to go (`progress`) sends those alone, whatever the
   * configuration has become since.
   */
  private async handOver(message: DeliverableMessage, progress: CopiesProgress | undefined): Promise<CopiesOutcome> {
    const { retryDelays, concurrency, leaseSeconds } = this.config.delivery;
    // With the stock's sixth (DeliveryWorker), copies start within a third of the lease; the
    // last then has the rest for its send (at most 60 s with the default lease of 120 s).
    const startBy = performance.now() + (leaseSeconds * 1000) / 6;
    const mail = this.outgoingMail(message);
    const perCopy = progress !== undefined || message.bulkSendingId !== null || this.verp.domain !== undefined;
    if (!perCopy) return deliveryRetryPolicy(await this.sendWhole(mail, message), message.attempt, retryDelays);
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
      return copiesOutcome(failed, progress, message.attempt, retryDelays);
    }
    // As many at once as the SMTP pool has connections (WORKER_CONCURRENCY).
    const results = await sendCopies(
      this.mailer,
      copies.map((copy) => ({ ...copy, dkim })),
      concurrency,
      startBy,
    );
    return copiesOutcome(results, progress, message.attempt, retryDelays);
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

  private outgoingMail(message: DeliverableMessage): OutgoingMail {
    return {
      id: message.id,
      from: message.sender,
      to: message.recipients,
      cc: message.cc ?? [],
      bcc: message.bcc ?? [],
      replyTo: message.replyTo ?? [],
      subject: message.subject,
      html: message.html,
      text: message.text,
      headers: message.headers ?? {},
      attachments: message.attachments,
      ...(message.mime && { mime: message.mime }),
    };
  }
}
