import { Injectable } from '@nestjs/common';
import { DeliveryJob } from '../platform/queue/delivery-queue';
import { QueueJob } from '../platform/queue/job-queue';
import { ClaimedJob, DeliveryClaim } from './delivery-claim';
import { DeliveryHandOver } from './delivery-hand-over';
import { DeliverableMessage } from './delivery.repository';

/**
 * Delivery attempts, as the worker runs them: claim the messages of a batch of jobs
 * (DeliveryClaim), then hand each to the mailer and record its outcome (DeliveryHandOver).
 */
@Injectable()
export class DeliverMessageUseCase {
  constructor(
    private readonly claims: DeliveryClaim,
    private readonly handOver: DeliveryHandOver,
  ) {}

  claim(jobs: QueueJob<DeliveryJob>[]): Promise<ClaimedJob[]> {
    return this.claims.claim(jobs);
  }

  /** One attempt at one claimed message; resolves once its outcome is committed (`replied`: DeliveryHandOver). */
  execute(job: QueueJob<DeliveryJob>, message: DeliverableMessage, replied: () => void): Promise<void> {
    return this.handOver.execute(job, message, replied);
  }
}
