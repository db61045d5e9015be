import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../platform/database/database';
import { GroupCommit } from '../platform/database/group-commit';
import { Metrics } from '../platform/metrics/metrics';
import { MessageLifecycle } from '../messages';
import type { MessagePriority } from '../messages';
import { CopiesProgress, DeliveryQueue } from '../platform/queue/delivery-queue';
import { SuppressionsRepository } from '../deliverability';
import { logOutcome } from './delivery-outcome-log';
import { FinishedAttempt } from './delivery.repository';

// A failed write is tried again after 0.4 s to 3.2 s: about 6 s in all, within the shutdown drain.
const WRITE_RETRY_DELAYS_MS = [400, 800, 1_600, 3_200];

/** How one job's attempt finished (and whether a retry is due). */
export interface JobResult {
  jobId: string;
  /** performance.now() when the mail server answered. */
  repliedAt: number;
  finished: FinishedAttempt & {
    userId: string;
    priority: MessagePriority;
    sentAt: Date;
    retryAfterSeconds?: number;
    copies?: CopiesProgress;
  };
}

/** What recording an outcome did: whether it moved its message, and a deferred one's nextAttemptAt. */
interface Recorded {
  moved: boolean;
  nextAttemptAt: Date | null;
}

/**
 * Writes what deliveries came to, at once: until then the mail server has a message that a crash
 * would send again (docs/delivery-and-deliverability.md#statuses). Results that arrive while a write is under way go in the next one,
 * so that under load one transaction records many deliveries: their status changes, the webhook
 * events and next attempts these cause, and their jobs' completion, all or nothing.
 */
@Injectable()
export class DeliveryRecorder {
  private readonly outcomes: GroupCommit<JobResult, Recorded>;

  constructor(
    database: Database,
    private readonly lifecycle: MessageLifecycle,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly metrics: Metrics,
    private readonly suppressions: SuppressionsRepository,
  ) {
    this.outcomes = new GroupCommit(database, (manager, results) => this.write(manager, results), {
      // Results that come within 3 ms share the transaction: under load 7 a transaction where one
      // turn of the event loop gathered 4 (WORKER_CONCURRENCY 8). A drain of 10,000 messages here (8 connections) ran
      // 10-15% faster with 20% less of PostgreSQL's CPU a message; waiting 6 or 10 ms saved a
      // little more CPU but ran slower (then, each delivery's slot was held until its outcome was
      // committed). The window in which a crash sends a message twice (reply to commit) did not
      // grow: fewer writes, each of more outcomes, keep fewer results waiting for the one under
      // way (docs/scaling.md#delivery-is-at-least-once). With slots freed at the reply
      // (DeliveryWorker) it still did not: p50 14 ms with the gather, 16 without (one run).
      gatherMs: 3,
      maxWriters: 1,
      maxBatch: Number.POSITIVE_INFINITY,
      // The mail server has these messages already: giving the jobs back would send them again.
      retryDelaysMs: WRITE_RETRY_DELAYS_MS,
    });
  }

  /** Resolves once the result is committed. */
  async record(result: JobResult): Promise<void> {
    const { moved, nextAttemptAt } = await this.outcomes.submit(result);
    const recordedAfterMs = performance.now() - result.repliedAt;
    this.metrics.deliveryRecordTime.observe(recordedAfterMs / 1000);
    logOutcome(result.finished, moved, nextAttemptAt, recordedAfterMs);
    this.metrics.deliveries.inc({ outcome: result.finished.status });
    if (result.finished.status === 'sent')
      this.metrics.deliveryLatency.observe((Date.now() - result.finished.sentAt.getTime()) / 1000);
  }

  /** Records the outcomes in the transaction given; says of each whether it moved its message, and when its retry is due. */
  private async write(manager: EntityManager, results: JobResult[]): Promise<Recorded[]> {
    const finished = results.map((r) => r.finished);
    // The messages the outcomes moved, by id: a deferred one with when its retry is due.
    const moved = new Map((await this.lifecycle.finish(manager, finished)).moved.map((m) => [m.id, m.nextAttemptAt]));
    // docs/delivery-and-deliverability.md: an address the relay refused as not existing is suppressed with the outcome that says
    // so; not by a late or duplicate job, whose outcome changed nothing.
    await this.suppressions.addMany(
      finished
        .filter((f) => moved.has(f.messageId))
        .flatMap((f) =>
          f.hardBounces.map((email) => ({
            userId: f.userId,
            email,
            reason: 'hard_bounce' as const,
            messageId: f.messageId,
          })),
        ),
      manager,
    );
    // A delay of 0 is a retry too. A retry names the copies still to go, if any, in its own job:
    // committed with this outcome, so no later attempt sends an accepted copy again. It starts at
    // the nextAttemptAt the message shows, not before.
    const retries = finished.filter((f) => moved.get(f.messageId));
    await this.deliveryQueue.enqueue(
      manager,
      retries.map((f) => ({
        job: { messageId: f.messageId, attempt: f.attempt + 1, ...(f.copies && { copies: f.copies }) },
        priority: f.priority,
        startAt: moved.get(f.messageId)!,
      })),
    );
    await this.deliveryQueue.complete(
      manager,
      results.map((r) => r.jobId),
    );
    return finished.map((f) => ({ moved: moved.has(f.messageId), nextAttemptAt: moved.get(f.messageId) ?? null }));
  }
}
