import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobQueue } from '../queue/job-queue';

export const WEBHOOK_QUEUE = 'webhook-delivery';

export interface WebhookJob {
  eventId: string;
}

/** Puts webhook events on the queue inside the transaction that created them (SPEC §7). */
@Injectable()
export class WebhookQueue implements OnApplicationBootstrap {
  constructor(
    private readonly queue: JobQueue,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Retries follow WEBHOOK_RETRY_DELAYS (scheduled by the dispatcher); pg-boss's own retries
    // bring back a job whose worker died (once an attempt could no longer be running) or that
    // failed unexpectedly (the database), with doubling delays.
    const leaseSeconds = Math.ceil(this.config.webhooks.timeoutMs / 1000) + 30;
    await this.queue.ensureQueue(WEBHOOK_QUEUE, { expireInSeconds: leaseSeconds, retryLimit: 50, retryDelay: 5, retryBackoff: true });
  }

  async enqueue(manager: EntityManager, eventIds: string[], startAfterSeconds?: number): Promise<void> {
    await this.queue.insert(manager, WEBHOOK_QUEUE, eventIds.map((eventId) => ({ data: { eventId }, startAfterSeconds })));
  }
}
