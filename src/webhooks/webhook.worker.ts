import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { QueueJob } from '../queue/job-queue';
import { JobLoop } from '../queue/job-loop';
import { WebhookJob, WebhookQueue } from '../queue/webhook-queue';
import { DeliverWebhookEventUseCase } from './deliver-webhook-event.use-case';

// Posts wait on receivers, not on this machine: more of them than deliveries.
const CONCURRENCY = 32;
// SPEC §8: webhooks drain first, 5 s at most, before deliveries.
const DRAIN_DEADLINE_MS = 5_000;

/**
 * Keeps up to 32 webhook events in flight, each on its own (a slow receiver holds one slot, not a
 * batch). Runs in `worker` and `all` processes.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: JobLoop<WebhookJob, { job: QueueJob<WebhookJob> }>;

  constructor(
    private readonly config: AppConfig,
    queue: WebhookQueue,
    deliverEvent: DeliverWebhookEventUseCase,
  ) {
    this.loop = new JobLoop(
      queue,
      { name: WebhookWorker.name, concurrency: CONCURRENCY, drainDeadlineMs: DRAIN_DEADLINE_MS },
      {
        prepare: (jobs) => Promise.resolve(jobs.map((job) => ({ job }))),
        run: ({ job }) => deliverEvent.execute(job),
      },
    );
  }

  onApplicationBootstrap(): void {
    if (this.config.role !== 'api') this.loop.start();
  }

  /** Stops fetching and gives the posts in flight up to 5 s; those unfinished return after their lease. */
  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }
}
