import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { RetentionTask } from '../platform/retention-task';
import { InboundRepository } from './inbound.repository';

/** Mails per transaction: small enough that no lock is held for long (raw mail is up to 10 MiB). */
const PURGE_BATCH = 100;

/**
 * Received mail is retained like sent mail (docs/inbound.md), by its receive time: mail received
 * before the window goes, with its attachments.
 */
@Injectable()
export class InboundRetention extends RetentionTask {
  protected readonly what = 'inbound mails past the retention window';

  constructor(
    private readonly inbound: InboundRepository,
    config: AppConfig,
  ) {
    super(config);
  }

  purge(now = new Date()): Promise<number> {
    const before = this.cutoff(now);
    return this.inBatches(PURGE_BATCH, (limit) => this.inbound.purge(before, limit));
  }
}
