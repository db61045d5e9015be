import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { JobQueue, QueueJob } from '../queue/job-queue';
import { DeliveryJob, DeliveryQueue, DELIVERY_QUEUE } from './delivery-queue';
import { DeliverableMessage, DeliveryOutcome, DeliveryRepository } from './delivery.repository';
import { Mailer, MailDeliveryError, MailReceipt } from './mailer/mailer';

export type DeliveryResult = DeliveryOutcome | 'skipped';

/**
 * One delivery attempt: claim the message (→ sending), hand it to the mailer, and record the
 * outcome together with the job's completion and, after a temporary failure, the next attempt.
 */
@Injectable()
export class DeliverMessageUseCase {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deliveries: DeliveryRepository,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly queue: JobQueue,
    private readonly mailer: Mailer,
    private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  async execute(job: QueueJob<DeliveryJob>): Promise<DeliveryResult> {
    const { messageId, attempt } = job.data;
    const message = await this.dataSource.transaction((m) => this.deliveries.claim(m, messageId, attempt));
    if (!message) {
      // Final already, or a job for an attempt that is not the current one.
      await this.dataSource.transaction((m) => this.queue.complete(m, DELIVERY_QUEUE, job.id));
      this.metrics.deliveries.inc({ outcome: 'skipped' });
      return 'skipped';
    }
    const outcome = await this.handOver(message, attempt);
    await this.dataSource.transaction(async (m) => {
      const moved = await this.deliveries.finish(m, messageId, attempt, outcome.status, outcome.detail);
      if (moved && outcome.retryAfterSeconds) {
        await this.deliveryQueue.enqueue(m, { messageId, attempt: attempt + 1 }, message.priority, outcome.retryAfterSeconds);
      }
      await this.queue.complete(m, DELIVERY_QUEUE, job.id);
    });
    this.metrics.deliveries.inc({ outcome: outcome.status });
    if (outcome.status === 'sent') this.metrics.deliveryLatency.observe((Date.now() - message.sentAt.getTime()) / 1000);
    return outcome.status;
  }

  private async handOver(
    message: DeliverableMessage,
    attempt: number,
  ): Promise<{ status: DeliveryOutcome; detail: string; retryAfterSeconds?: number }> {
    let receipt: MailReceipt;
    try {
      receipt = await this.mailer.send({
        id: message.id,
        from: message.sender,
        to: message.recipients,
        subject: message.subject,
        html: message.html,
        attachments: message.attachments,
      });
    } catch (error) {
      if (!(error instanceof MailDeliveryError)) throw error;
      const delays = this.config.delivery.retryDelays;
      if (error.permanent) return { status: 'failed', detail: error.message };
      if (attempt > delays.length) return { status: 'failed', detail: `${error.message} (gave up after ${attempt} attempts)` };
      return { status: 'deferred', detail: error.message, retryAfterSeconds: delays[attempt - 1] };
    }
    const refused = receipt.rejected.length > 0 ? ` (refused: ${receipt.rejected.join(', ')})` : '';
    return { status: 'sent', detail: `${receipt.reply}${refused}` };
  }
}
