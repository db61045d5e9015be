import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { WebhookQueue } from '../platform/queue/webhook-queue';
import { RetentionTask } from '../platform/retention-task';
import { WebhookEventsRepository } from './webhook-events.repository';

/** Deliveries per transaction: small enough that no lock is held for long. */
const PURGE_BATCH = 1_000;

/**
 * The delivery log of account events (domain, suppression, inbound:
 * docs/delivery-and-deliverability.md#webhooks) has no message to be deleted with: those created
 * before the window go once no longer pending, with their attempts, then the queue's jobs left
 * without their event.
 */
@Injectable()
export class WebhookRetention extends RetentionTask {
  protected readonly what = 'account-event deliveries past the retention window';

  constructor(
    private readonly events: WebhookEventsRepository,
    private readonly queue: WebhookQueue,
    config: AppConfig,
  ) {
    super(config);
  }

  async purge(now = new Date()): Promise<number> {
    const before = this.cutoff(now);
    const purged = await this.inBatches(PURGE_BATCH, (limit) => this.events.purgeAccountEvents(before, limit));
    if (purged > 0) await this.queue.deleteJobsOfDeletedEvents((ids) => this.events.liveIds(ids), this.schedule.signal);
    return purged;
  }
}
