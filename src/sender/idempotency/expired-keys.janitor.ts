import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ScheduledTask } from '../../platform/scheduled-task';
import { AppConfig } from '../../platform/config/app-config';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

const EVERY_MS = 10 * 60_000;
const BATCH = 10_000;

/**
 * Deletes idempotency keys past their 24 h, in worker processes, in small batches so that no
 * long lock holds up sends. Lookups ignore expired keys anyway; this only keeps the table small.
 */
@Injectable()
export class ExpiredKeysJanitor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ExpiredKeysJanitor.name);
  private readonly schedule = new ScheduledTask(() => this.sweep(), {
    everyMs: EVERY_MS,
    firstRun: 'after-interval',
    onError: (err) => this.logger.warn({ err }, 'Could not delete expired idempotency keys'),
  });

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.schedule.start();
  }

  /** Waits for a sweep in progress: its batch commits whole, and it starts no other. */
  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  /** Returns how many keys it deleted (until none is left, or the process stops). */
  async sweep(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const count = await this.keys.deleteExpired(BATCH);
      deleted += count;
      if (count < BATCH || this.schedule.signal.aborted) return deleted;
    }
  }
}
