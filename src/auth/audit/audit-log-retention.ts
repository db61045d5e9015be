import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { retentionCutoff } from '../../platform/periodic-purge';
import { ScheduledTask } from '../../platform/scheduled-task';
import { AuditLogRepository } from './audit-log.repository';

const EVERY_MS = 10 * 60_000;
/** Entries per statement: small rows, small enough that no lock is held for long. */
const PURGE_BATCH = 1_000;

/**
 * MESSAGE_RETENTION_DAYS for the audit log (docs/teams.md#audit-log, "retained like messages"):
 * worker processes delete the entries written before midnight UTC that many days ago, at start and
 * every 10 minutes, in batches that lock only the rows they delete: the window messages keep.
 */
@Injectable()
export class AuditLogRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AuditLogRetention.name);
  private readonly schedule = new ScheduledTask(() => this.purgeAndLog(), {
    everyMs: EVERY_MS,
    firstRun: 'at-start',
    onError: (err) => this.logger.warn({ err }, 'Could not purge audit log entries past the retention window'),
  });

  constructor(
    private readonly entries: AuditLogRepository,
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
    if (purged > 0) this.logger.log({ purged }, `Purged ${purged} audit log entries past retention`);
  }

  /** Deletes every entry written before the window; returns how many. */
  async purge(now = new Date()): Promise<number> {
    const before = retentionCutoff(this.config.retentionDays!, now);
    let purged = 0;
    for (let n = PURGE_BATCH; n === PURGE_BATCH && !this.schedule.signal.aborted; purged += n)
      n = await this.entries.purge(before, PURGE_BATCH);
    return purged;
  }
}
