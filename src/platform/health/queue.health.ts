import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DeliveryQueue } from '../queue/delivery-queue';

/** The job queue is ready when pg-boss answers for the delivery queue. */
@Injectable()
export class QueueHealthIndicator {
  constructor(
    private readonly deliveries: DeliveryQueue,
    private readonly indicator: HealthIndicatorService,
  ) {}

  async check(key: string): Promise<HealthIndicatorResult> {
    const session = this.indicator.check(key);
    try {
      return session.up({ waiting: await this.deliveries.size() });
    } catch {
      return session.down();
    }
  }
}
