import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { RetentionTask } from '../../platform/retention-task';
import { AuditLogRepository } from './audit-log.repository';

/** Entries per statement: small rows, small enough that no lock is held for long. */
const PURGE_BATCH = 1_000;

/** The audit log is retained like messages (docs/teams.md#audit-log): entries written before the window go. */
@Injectable()
export class AuditLogRetention extends RetentionTask {
  protected readonly what = 'audit log entries past the retention window';

  constructor(
    private readonly entries: AuditLogRepository,
    config: AppConfig,
  ) {
    super(config);
  }

  purge(now = new Date()): Promise<number> {
    const before = this.cutoff(now);
    return this.inBatches(PURGE_BATCH, (limit) => this.entries.purge(before, limit));
  }
}
