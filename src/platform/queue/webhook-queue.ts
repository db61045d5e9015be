import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobQueue, LiveAmong } from './job-queue';
import { NamedQueue, QueueOptions } from './named-queue';

// The name the queue was created with; its jobs are webhook events to post.
export const WEBHOOK_QUEUE = 'webhook-delivery';

export interface WebhookJob {
  eventId: string;
}

/** One job per webhook event to post, put on the queue inside the transaction that created or rescheduled it (docs/delivery-and-deliverability.md#webhooks). */
@Injectable()
export class WebhookQueue extends NamedQueue<WebhookJob> {
  readonly name = WEBHOOK_QUEUE;

  constructor(
    jobs: JobQueue,
    private readonly config: AppConfig,
  ) {
    super(jobs);
  }

  /** How long a fetched job is this fetch's: a post's timeout and half a minute more. */
  get leaseSeconds(): number {
    return Math.ceil(this.config.webhooks.timeoutMs / 1000) + 30;
  }

  protected options(): QueueOptions {
    // Retries follow WEBHOOK_RETRY_DELAYS (scheduled when an attempt is recorded); pg-boss's own
    // retries bring back a job whose worker died (once an attempt could no longer be running) or
    // that failed unexpectedly (the database), with doubling delays.
    return { expireInSeconds: this.leaseSeconds, retryLimit: 50, retryDelay: 5, retryBackoff: true };
  }

  /** A job for each event, due now or, for a retry, at the nextAttemptAt its event shows. */
  async enqueue(manager: EntityManager, eventIds: string[], startAt?: Date): Promise<void> {
    await this.insert(
      manager,
      eventIds.map((eventId) => ({ data: { eventId }, startAt })),
    );
  }

  /**
   * The jobs of webhook events deleted since (retention deletes an event once it is posted or
   * given up, so none is running). `liveEvents`: which of the given event ids still exist. Stops
   * between statements once `signal` is aborted; returns how many it deleted.
   */
  deleteJobsOfDeletedEvents(liveEvents: LiveAmong, signal?: AbortSignal): Promise<number> {
    return this.deleteJobsWithoutSubject('eventId', liveEvents, signal);
  }
}
