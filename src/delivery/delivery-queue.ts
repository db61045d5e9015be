import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import type { MessagePriority } from '../messages/message-status';
import { JobQueue } from '../queue/job-queue';

export const DELIVERY_QUEUE = 'message-delivery';

export interface DeliveryJob {
  messageId: string;
  attempt: number;
}

const JOB_PRIORITY: Record<MessagePriority, number> = { low: 0, normal: 1, high: 2 };

/**
 * The producer side of delivery: puts a delivery job on the queue inside the caller's
 * transaction, and wakes the workers of this process once that transaction has committed.
 */
@Injectable()
export class DeliveryQueue implements OnApplicationBootstrap {
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly queue: JobQueue,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.ensureQueue(DELIVERY_QUEUE, {
      // pg-boss's own retries only cover a worker that died holding the job, or a database that
      // failed mid-delivery (SMTP outcomes are scheduled by us): the job comes back after its
      // lease, then with doubling delays (capped by pg-boss at 2^16 s) while pg-boss keeps the
      // job (14 days).
      expireInSeconds: this.config.delivery.leaseSeconds,
      retryLimit: 50,
      retryDelay: 1,
      retryBackoff: true,
    });
  }

  /** Delivery jobs in one statement, each after its delay when it has one (a retry). */
  async enqueue(manager: EntityManager, jobs: { job: DeliveryJob; priority: MessagePriority; startAfterSeconds?: number }[]): Promise<void> {
    await this.queue.insert(
      manager,
      DELIVERY_QUEUE,
      jobs.map(({ job, priority, startAfterSeconds }) => ({ data: job, priority: JOB_PRIORITY[priority], startAfterSeconds })),
    );
  }

  /** Call after the commit: workers in this process fetch at once instead of at their next poll. */
  notifyCommitted(): void {
    for (const listener of this.listeners) listener();
  }

  onWork(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
