import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DELIVERY_QUEUE } from '../delivery/delivery-queue';
import { JobQueue } from '../queue/job-queue';

/** The job queue is ready when pg-boss answers for the delivery queue. */
@Injectable()
export class QueueHealthIndicator {
  constructor(
    private readonly queue: JobQueue,
    private readonly indicator: HealthIndicatorService,
  ) {}

  async check(key: string): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    try {
      return session.up({ waiting: await this.queue.size(DELIVERY_QUEUE) });
    } catch {
      return session.down();
    }
  }
}
