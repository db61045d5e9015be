import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from './config/app-config';
import { ScheduledTask } from './scheduled-task';

const DAY_MS = 86_400_000;
const EVERY_MS = 10 * 60_000;

/**
 * The first moment MESSAGE_RETENTION_DAYS keeps: midnight UTC `days` days before `now`'s day.
 * Every purger (sent mail, received mail, account-event deliveries, the audit log) keeps the same window.
 */
export function retentionCutoff(days: number, now = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - days * DAY_MS);
}

/**
 * MESSAGE_RETENTION_DAYS applied to one kind of row (or another rule of how long rows are kept:
 * `runs`): worker processes (never API-only ones) run
 * `purge` at start and every 10 minutes when a retention is set, log what it deleted, and wait for
 * a purge in progress at shutdown. A subclass says what it purges and how; `inBatches` is the loop
 * most need: small transactions that lock only the rows they delete, stopping between two once the
 * process stops.
 */
export abstract class RetentionTask implements OnApplicationBootstrap, OnModuleDestroy {
  /** What the rows are, plural, for the log: "audit log entries past the retention window". */
  protected abstract readonly what: string;
  private readonly logger = new Logger(this.constructor.name);
  protected readonly schedule = new ScheduledTask(() => this.purgeAndLog(), {
    everyMs: EVERY_MS,
    firstRun: 'at-start',
    onError: (err) => this.logger.warn({ err }, `Could not purge ${this.what}`),
  });

  constructor(protected readonly config: AppConfig) {}

  /** Deletes what is past the window on `now`; returns how many rows. */
  abstract purge(now?: Date): Promise<number>;

  onApplicationBootstrap(): void {
    if (this.runs()) this.schedule.start();
  }

  /** Whether this process purges: a worker (or ROLE=all) when MESSAGE_RETENTION_DAYS is set. */
  protected runs(): boolean {
    return this.config.role !== 'api' && this.config.retentionDays !== undefined;
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  /** The first moment kept on `now`. */
  protected cutoff(now: Date): Date {
    return retentionCutoff(this.config.retentionDays!, now);
  }

  /** Runs `deleteBatch(batch)` until one deletes fewer than `batch` rows or the process stops; the total. */
  protected async inBatches(batch: number, deleteBatch: (limit: number) => Promise<number>): Promise<number> {
    let purged = 0;
    for (let n = batch; n === batch && !this.schedule.signal.aborted; purged += n) n = await deleteBatch(batch);
    return purged;
  }

  private async purgeAndLog(): Promise<void> {
    const purged = await this.purge();
    if (purged > 0) this.logger.log({ purged }, `Purged ${purged} ${this.what}`);
  }
}
