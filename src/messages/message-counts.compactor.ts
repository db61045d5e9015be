import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { ScheduledTask } from '../platform/scheduled-task';
import { AppConfig } from '../platform/config/app-config';
import { Database } from '../platform/database/database';
import { MessageUpkeepRepository } from './message-upkeep.repository';

const EVERY_MS = 1_000;
const BATCH = 20_000;
// One compactor at a time across all processes: the namespace of our two-integer advisory locks.
const LOCK = [0x636e7473, 1];

/**
 * Compacts the per-user message counts: adds the pending changes that triggers append to
 * message_count_changes into message_counts (and deletes them), so that reading a count sums a
 * few rows. Counts are exact without it; it only keeps them cheap to read. It runs in worker
 * processes, which every deployment has, so API processes spend nothing on it.
 */
@Injectable()
export class MessageCountsCompactor implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MessageCountsCompactor.name);
  private readonly schedule = new ScheduledTask(() => this.compact(), {
    everyMs: EVERY_MS,
    firstRun: 'after-interval',
    onError: (err) => this.logger.warn({ err }, 'Could not compact message count changes'),
  });

  constructor(
    private readonly database: Database,
    private readonly upkeep: MessageUpkeepRepository,
    private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.schedule.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.schedule.stop();
  }

  /** Compacts up to one batch; returns how many changes it added up (0 when another process holds the lock). */
  async compact(): Promise<number> {
    return this.database.transaction(async (manager) => {
      const [{ locked }]: { locked: boolean }[] = await manager.query(
        `SELECT pg_try_advisory_xact_lock($1, $2) AS locked`,
        LOCK,
      );
      if (!locked) return 0;
      return this.upkeep.compactCounts(manager, BATCH);
    });
  }
}
