import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { QueueJob } from '../platform/queue/job-queue';
import { JobLoop, Turn } from '../platform/queue/job-loop';
import { MailFirst } from '../platform/queue/mail-first';
import { WebhookJob, WebhookQueue } from '../platform/queue/webhook-queue';
import { DeliverWebhookEventUseCase } from './deliver-webhook-event.use-case';
import { WebhookEventsRepository } from './webhook-events.repository';

// Posts wait on receivers, not on this machine: more of them than deliveries.
const CONCURRENCY = 32;
// docs/scaling.md: webhooks drain first, 5 s at most, before deliveries.
const DRAIN_DEADLINE_MS = 5_000;
// Fair turns: one user holds at most half the slots, one target (endpoint or URL) a quarter, so
// that receivers that never answer hold at most that many slots for WEBHOOK_TIMEOUT_MS each.
const PER_USER = CONCURRENCY / 2;
const PER_TARGET = CONCURRENCY / 4;
// Mail first (docs/scaling.md#mail-first): while messages wait for a delivery slot, the posts that
// may start, beyond those waiting on a receiver for over a second (they hold a slot, not the CPU
// or the database, and a receiver that never answers must not stop everyone's events).
const SLOTS_BEHIND_MAIL = 1;
const WAITING_ON_RECEIVER_MS = 1_000;
// The longest a fetched job waits for a slot on the lease it was fetched with.
const MAX_WAIT_UNRENEWED_MS = 10_000;

type WebhookWork = { job: QueueJob<WebhookJob>; turns: Turn[] };

/**
 * Keeps up to 32 webhook events in flight, each on its own (a slow receiver holds one slot, not a
 * batch), in fair turns across users and their targets: an event whose user or target already
 * holds its share waits on the queue, and the others' events behind it go first. While messages
 * wait for a delivery slot in the same process, few posts start (mail first, SLOTS_BEHIND_MAIL).
 * Runs in `worker` and `all` processes.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: JobLoop<WebhookJob, WebhookWork>;

  constructor(
    private readonly config: AppConfig,
    queue: WebhookQueue,
    deliverEvent: DeliverWebhookEventUseCase,
    events: WebhookEventsRepository,
    mailFirst: MailFirst,
  ) {
    const timeoutSeconds = Math.ceil(config.webhooks.timeoutMs / 1000);
    this.loop = new JobLoop(
      queue,
      {
        name: WebhookWorker.name,
        concurrency: CONCURRENCY,
        slotsNow: () =>
          mailFirst.mailWaiting()
            ? SLOTS_BEHIND_MAIL + this.loop.slotsHeldLongerThan(WAITING_ON_RECEIVER_MS)
            : CONCURRENCY,
        drainDeadlineMs: DRAIN_DEADLINE_MS,
        // Jobs fetched for slots that mail first took back before they ran wait for one: after a
        // sixth of their lease (10 s at most), it is started again before the post, which takes at
        // most the timeout, half a minute less than the lease; a job the queue took back is not
        // posted. Unrenewed, a job has at least 20 s beyond its post for its reads and records.
        stockMaxAgeMs: Math.min((queue.leaseSeconds * 1000) / 6, MAX_WAIT_UNRENEWED_MS),
        // A target whose turns are full frees one within a timeout at the latest.
        putBackMaxSeconds: timeoutSeconds,
      },
      {
        prepare: async (jobs) => {
          const targets = await events.targetsOf(jobs.map((job) => job.data.eventId));
          return jobs.map((job) => {
            // An event gone since needs no turn: its job completes at once.
            const of = targets.get(job.data.eventId);
            const turns = of
              ? [
                  { key: `user:${of.userId}`, limit: PER_USER },
                  { key: `target:${of.target}`, limit: PER_TARGET },
                ]
              : [];
            return { job, turns };
          });
        },
        run: ({ job }) => deliverEvent.execute(job),
        turnsOf: (work) => work.turns,
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
