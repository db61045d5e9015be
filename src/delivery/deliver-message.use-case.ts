import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { MessageLifecycle } from '../messages/lifecycle/message-lifecycle';
import { DeliveryJob, DeliveryQueue } from '../queue/delivery-queue';
import { QueueJob } from '../queue/job-queue';
import { Metrics } from '../metrics/metrics';
import { AttemptOutcome, deliveryRetryPolicy, HandOverResult } from './delivery-retry-policy';
import { DeliveryRecorder } from './delivery-recorder';
import { CLAIMED_COLUMNS, ClaimedColumns, DeliverableMessage, DeliveryRepository } from './delivery.repository';
import { Mailer } from './mailer/mailer';
import { Database } from '../database/database';
import { SuppressionList } from '../suppressions/suppression-list';
import { suppressedDetail, withoutSuppressed } from './suppressed-recipients';

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
      const suppressed = await this.suppressionList.among(manager, jobs.map((j) => j.data.messageId));
      const allSuppressed = jobs.filter((j) => suppressed.get(j.data.messageId)?.all);
      const { moved: ended } = await this.lifecycle.suppress(
        manager,
        allSuppressed.map(({ data: { messageId, attempt } }) => ({ messageId, attempt, detail: suppressedDetail(suppressed.get(messageId)!.keys, true) })),
      );
      const toClaim = jobs.filter((j) => !suppressed.get(j.data.messageId)?.all).map(({ data: { messageId, attempt } }) => {
        const skippedKeys = suppressed.get(messageId)?.keys;
        return { messageId, attempt, note: skippedKeys ? suppressedDetail(skippedKeys, false) : null };
      });
      const { moved } = await this.lifecycle.claim<ClaimedColumns>(manager, toClaim, CLAIMED_COLUMNS);
      const messages = (await this.deliveries.deliverable(manager, moved)).map((m) => withoutSuppressed(m, suppressed.get(m.id)?.keys ?? []));
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
    const outcome = await this.handOver(message);
    await this.recorder.record({
      jobId: job.id,
      repliedAt: performance.now(),
      finished: { messageId: message.id, userId: message.userId, attempt: message.attempt, priority: message.priority, sentAt: message.sentAt, ...outcome },
    });
  }

  private async handOver(message: DeliverableMessage): Promise<AttemptOutcome> {
    return deliveryRetryPolicy(await this.send(message), message.attempt, this.config.delivery.retryDelays);
  }

  private async send(message: DeliverableMessage): Promise<HandOverResult> {
    try {
      return {
        receipt: await this.mailer.send({
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
        }),
      };
    } catch (error) {
      return { error };
    }
  }
}
