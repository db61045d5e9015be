import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { ScheduledTask } from '../../platform/scheduled-task';
import { SiteLimitsRepository } from './site-limits.repository';

const EVERY_MS = 10 * 60_000;
const BATCH = 10_000;

/**
 * Keeps the shaping tables small, in worker processes: deletes leases whose holders are gone on
 * sites nobody asked for since (a grant clears its own site's), and sites back at their full pace,
 * which every domain seen once would otherwise leave behind. Batched, so no long lock holds up a grant.
 */
export class DeliverySitesJanitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliverySitesJanitor.name);
  private readonly schedule = new ScheduledTask(() => this.sweep(), {
    everyMs: EVERY_MS,
    firstRun: 'after-interval',
    onError: (err) => this.logger.warn({ err }, 'Could not sweep delivery sites'),
  });

  constructor(
    private readonly repository: SiteLimitsRepository,
    private readonly config: AppConfig,
    /** The shaping's quiet period (SiteShapingOptions): a slowed site is at full pace again after enough of them. */
    private readonly quietSeconds: number,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  /** How many leases and sites it deleted (until none is left, or the process stops). */
  async sweep(): Promise<{ leases: number; sites: number }> {
    const deleted = { leases: 0, sites: 0 };
    for (;;) {
      const leases = await this.repository.deleteExpiredLeases(BATCH);
      deleted.leases += leases;
      if (leases < BATCH || this.schedule.signal.aborted) break;
    }
    for (;;) {
      const sites = await this.repository.deleteSitesAtFullPace(this.quietSeconds, BATCH);
      deleted.sites += sites;
      if (sites < BATCH || this.schedule.signal.aborted) break;
    }
    return deleted;
  }
}
