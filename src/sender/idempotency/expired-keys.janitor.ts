import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
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
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly keys: IdempotencyKeysRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.timer = setInterval(
      () =>
        void this.sweep().catch((err: unknown) =>
          this.logger.warn({ err }, 'Could not delete expired idempotency keys'),
        ),
      EVERY_MS,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Returns how many keys it deleted. */
  async sweep(): Promise<number> {
    let deleted = 0;
    for (;;) {
      const count = await this.keys.deleteExpired(BATCH);
      deleted += count;
      if (count < BATCH) return deleted;
    }
  }
}
