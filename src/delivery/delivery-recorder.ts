import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '../metrics/metrics';
import { MessageLifecycle } from '../messages/lifecycle/message-lifecycle';
import type { MessagePriority } from '../messages/message-status';
import { DeliveryQueue } from '../queue/delivery-queue';
import { logOutcome } from './delivery-outcome-log';
import { FinishedAttempt } from './delivery.repository';

// 0.4 s to 6.4 s apart: about 12 s, within the shutdown drain.
const WRITE_ATTEMPTS = 5;

/** How one job's attempt finished (and whether a retry is due). */
export interface JobResult {
  jobId: string;
  /** performance.now() when the mail server answered. */
  repliedAt: number;
  finished: FinishedAttempt & { userId: string; priority: MessagePriority; sentAt: Date; retryAfterSeconds?: number };
}

/**
 * Writes what deliveries came to, at once: until then the mail server has a message that a crash
 * would send again (SPEC §5). Results that arrive while a write is under way go in the next one,
 * so that under load one transaction records many deliveries: their status changes, the webhook
 * events and next attempts these cause, and their jobs' completion, all or nothing.
 */
@Injectable()
export class DeliveryRecorder {
  private pending: { result: JobResult; done: () => void; failed: (error: unknown) => void }[] = [];
  private writing?: Promise<void>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly lifecycle: MessageLifecycle,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly metrics: Metrics,
  ) {}

  /** Resolves once the result is committed. */
  record(result: JobResult): Promise<void> {
    return new Promise((done, failed) => {
      this.pending.push({ result, done, failed });
      this.writing ??= this.writeAll();
    });
  }

  private async writeAll(): Promise<void> {
    // Results of the same turn of the event loop share the transaction; waiting longer would widen the window.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.writeWithRetries(batch.map((p) => p.result));
        batch.forEach((p) => p.done());
      } catch (error) {
        batch.forEach((p) => p.failed(error));
      }
    }
    this.writing = undefined;
  }

  /**
   * The mail server has these messages already: a failed write is retried for a while, since
   * giving the jobs back would send them again.
   */
  private async writeWithRetries(results: JobResult[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.write(results);
      } catch (error) {
        if (attempt >= WRITE_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200 * 2 ** attempt));
      }
    }
  }

  private async write(results: JobResult[]): Promise<void> {
    const finished = results.map((r) => r.finished);
    const moved = await this.dataSource.transaction(async (manager) => {
      const moved = new Set((await this.lifecycle.finish(manager, finished)).moved.map((m) => m.id));
      // A delay of 0 is a retry too.
      const retries = finished.filter((f) => f.retryAfterSeconds !== undefined && moved.has(f.messageId));
      await this.deliveryQueue.enqueue(
        manager,
        retries.map((f) => ({ job: { messageId: f.messageId, attempt: f.attempt + 1 }, priority: f.priority, startAfterSeconds: f.retryAfterSeconds })),
      );
      await this.deliveryQueue.complete(manager, results.map((r) => r.jobId));
      return moved;
    });
    const recordedAt = performance.now();
    for (const result of results) {
      this.metrics.deliveryRecordTime.observe((recordedAt - result.repliedAt) / 1000);
      logOutcome(result.finished, moved.has(result.finished.messageId), recordedAt - result.repliedAt);
      this.metrics.deliveries.inc({ outcome: result.finished.status });
      if (result.finished.status === 'sent') this.metrics.deliveryLatency.observe((Date.now() - result.finished.sentAt.getTime()) / 1000);
    }
  }
}
