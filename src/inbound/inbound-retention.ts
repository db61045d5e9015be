import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { retentionCutoff } from '../platform/periodic-purge';
import { ScheduledTask } from '../platform/scheduled-task';
import { AppConfig } from '../platform/config/app-config';
import { InboundRepository } from './inbound.repository';

const EVERY_MS = 10 * 60_000;
/** Mails per transaction: small enough that no lock is held for long (raw mail is up to 10 MiB). */
const PURGE_BATCH = 100;

/**
 * MESSAGE_RETENTION_DAYS for received mail (docs/inbound.md): worker processes delete the mail received
 * before midnight UTC that many days ago, with its attachments, at start and every 10 minutes,
 * in small transactions that lock only the rows they delete: the window messages keep
 * (MessageRetention), applied to the receive time.
 */
@Injectable()
export class InboundRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InboundRetention.name);
  private readonly schedule = new ScheduledTask(() => this.purgeAndLog(), {
    everyMs: EVERY_MS,
    firstRun: 'at-start',
    onError: (err) => this.logger.warn({ err }, 'Could not purge inbound mail past the retention window'),
  });

  constructor(
    private readonly inbound: InboundRepository,
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
    if (purged > 0) this.logger.log({ purged }, `Purged ${purged} inbound mails past retention`);
  }

  /** Deletes every mail received before the window; returns how many. */
  async purge(now = new Date()): Promise<number> {
    const before = retentionCutoff(this.config.retentionDays!, now);
    let purged = 0;
    for (let n = PURGE_BATCH; n === PURGE_BATCH && !this.schedule.signal.aborted; purged += n)
      n = await this.inbound.purge(before, PURGE_BATCH);
    return purged;
  }
}
