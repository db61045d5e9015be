import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { RetentionTask } from '../platform/retention-task';
import { Database } from '../platform/database/database';
import { DeliveryQueue } from '../platform/queue/delivery-queue';
import { WebhookQueue } from '../platform/queue/webhook-queue';
import { FINISHED_STATUSES } from './lifecycle/status-groups';
import { MessageEventStore } from './message-event-store';
import { MessageUpkeepRepository } from './message-upkeep.repository';

/** Messages per transaction: small enough that no lock is held for long. */
export const PURGE_BATCH = 1_000;
// One purger at a time across all processes; the namespace the count compactor's lock uses.
export const PURGE_LOCK = [0x636e7473, 2];

/**
 * MESSAGE_RETENTION_DAYS: deletes the messages sent on UTC days older than the window, oldest
 * first, with everything that hangs off them (recipients, history, attachments, submitted MIME,
 * applied reports, webhook events and attempts: ON DELETE CASCADE) and their jobs in pg-boss's
 * tables. Delete triggers keep every kept count exact (MessageRetention1764518400000). It runs in
 * worker processes, one at a time across them, in transactions of PURGE_BATCH messages that lock
 * only the rows they delete, so sends and lists never wait for it.
 */
@Injectable()
export class MessageRetention extends RetentionTask {
  protected readonly what = 'messages past the retention window';

  constructor(
    private readonly database: Database,
    private readonly upkeep: MessageUpkeepRepository,
    config: AppConfig,
    private readonly deliveries: DeliveryQueue,
    private readonly webhooks: WebhookQueue,
    private readonly events: MessageEventStore,
  ) {
    super(config);
  }

  /**
   * Purges batch after batch until nothing before the cutoff is left to purge (or the process
   * stops, or another process holds the lock); then the queue rows left without their message.
   * A purge stopped anywhere (a crash between batches) resumes where it was: each batch commits
   * whole. Returns how many messages it deleted.
   */
  async purge(now = new Date(), batch = PURGE_BATCH): Promise<number> {
    const before = this.cutoff(now);
    let purged = 0;
    // Each batch starts where the last one ended: the unfinished messages it stepped over are not
    // read again by every batch (with the bench seed's 10% unfinished, 300,000 messages into a
    // purge, that re-reading was 55 ms of a 163 ms batch and growing).
    let from: Date | undefined;
    for (let n = batch; n === batch && !this.schedule.signal.aborted; purged += n)
      ({ deleted: n, last: from } = await this.purgeBatch(before, from, batch));
    if (purged > 0) {
      await this.deleteOrphanJobs();
      await this.deleteZeroCounts();
    }
    return purged;
  }

  /**
   * Deletes up to `limit` finished messages sent from `from` (when given) to before `before`,
   * oldest first; returns how many and the sentAt of the newest (deleted 0 when another process
   * is purging).
   */
  async purgeBatch(before: Date, from?: Date, limit = PURGE_BATCH): Promise<{ deleted: number; last?: Date }> {
    return this.database.transaction(async (manager) => {
      const [{ locked }]: { locked: boolean }[] = await manager.query(
        `SELECT pg_try_advisory_xact_lock($1, $2) AS locked`,
        PURGE_LOCK,
      );
      if (!locked) return { deleted: 0 };
      // A message whose delivery is still to come is kept past the window until its delivery ends.
      return this.upkeep.purgeSent(manager, { before, from, statuses: [...FINISHED_STATUSES], limit });
    });
  }

  /**
   * The kept counts that purges brought to zero (a past day, an address no longer mailed): a zero
   * row counts nothing, so deleting it changes no count; it only keeps message_counts from growing
   * for ever. Those of this run's purge are zero once the compactor has added its changes: the
   * next run takes them.
   */
  deleteZeroCounts(): Promise<number> {
    return this.upkeep.deleteZeroCounts();
  }

  /**
   * The queue's jobs (waiting, done or archived) whose message or webhook event is gone (the
   * JobQueue deletes them: pg-boss's tables are its own; each context tells which of its ids live). Deleted after the messages, so a purge
   * interrupted in between leaves them for the next one, never a message without its jobs.
   */
  async deleteOrphanJobs(): Promise<number> {
    const { signal } = this.schedule;
    return (
      (await this.deliveries.deleteJobsOfDeletedMessages((ids) => this.upkeep.liveIds(ids), signal)) +
      (await this.webhooks.deleteJobsOfDeletedEvents((ids) => this.events.liveIds(ids), signal))
    );
  }
}
