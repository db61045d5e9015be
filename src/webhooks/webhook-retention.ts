import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { retentionCutoff } from '../platform/periodic-purge';
import { ScheduledTask } from '../platform/scheduled-task';
import { AppConfig } from '../platform/config/app-config';
import { WebhookQueue } from '../platform/queue/webhook-queue';
import { WebhookEventsRepository } from './webhook-events.repository';

const EVERY_MS = 10 * 60_000;
/** Deliveries per transaction: small enough that no lock is held for long. */
const PURGE_BATCH = 1_000;

/**
 * MESSAGE_RETENTION_DAYS for the delivery log of account events (domain, suppression, inbound:
 * docs/delivery-and-deliverability.md#webhooks), which have no message to be deleted with: worker processes delete those created
 * before the window once they are no longer pending, with their attempts, at start and every 10
 * minutes, then the queue's jobs left without their event.
 */
@Injectable()
export class WebhookRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(WebhookRetention.name);
  private readonly schedule = new ScheduledTask(() => this.purgeAndLog(), {
    everyMs: EVERY_MS,
    firstRun: 'at-start',
    onError: (err) => this.logger.warn({ err }, 'Could not purge account-event deliveries'),
  });

  constructor(
    private readonly events: WebhookEventsRepository,
    private readonly queue: WebhookQueue,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api' || this.config.retentionDays === undefined) return;
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  private async purgeAndLog(): Promise<void> {
    const purged = await this.purge();
    if (purged > 0) this.logger.log({ purged }, `Purged ${purged} account-event deliveries`);
  }

  /** Deletes every finished account-event delivery created before the window; returns how many. */
  async purge(now = new Date()): Promise<number> {
    const before = retentionCutoff(this.config.retentionDays!, now);
    let purged = 0;
    for (let n = PURGE_BATCH; n === PURGE_BATCH && !this.schedule.signal.aborted; purged += n)
      n = await this.events.purgeAccountEvents(before, PURGE_BATCH);
    if (purged > 0) await this.queue.deleteJobsOfDeletedEvents((ids) => this.events.liveIds(ids), this.schedule.signal);
    return purged;
  }
}
