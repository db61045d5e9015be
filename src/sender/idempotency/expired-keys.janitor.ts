import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { KEY_LIFETIME } from './idempotency-keys';
import { Database } from '../../platform/database/database';

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
    private readonly database: Database,
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
      // Raw: a batched DELETE (by ctid, with LIMIT) is beyond TypeORM's delete().
      const [, count]: [unknown, number] = await this.database.query(
        `DELETE FROM idempotency_keys WHERE ctid = ANY (ARRAY(
           SELECT ctid FROM idempotency_keys WHERE created_at <= now() - interval '${KEY_LIFETIME}' LIMIT ${BATCH}))`,
      );
      deleted += count;
      if (count < BATCH) return deleted;
    }
  }
}
