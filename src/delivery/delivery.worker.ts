import { Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { DeliveryJob, DeliveryQueue } from '../platform/queue/delivery-queue';
import { JobLoop } from '../platform/queue/job-loop';
import { MailFirst } from '../platform/queue/mail-first';
import { DeliverMessageUseCase } from './deliver-message.use-case';
import { ClaimedJob } from './delivery-claim';

// docs/scaling.md gives shutdown 30 s: webhooks drain first (5 s at most), then deliveries (20 s at
// most), and the rest is for closing.
const DRAIN_DEADLINE_MS = 20_000;
// Mail first (docs/scaling.md#mail-first): a delivery holding its slot longer waits on a mail server.
const SLOW_DELIVERY_MS = 1_000;

/**
 * Keeps up to WORKER_CONCURRENCY deliveries being handed to the mail server at once. Runs in
 * `worker` and `all` processes.
 *
 * A delivery frees its slot once the mail server has answered, and its outcome is then written
 * with others' (DeliveryRecorder) while the slot takes the next message; at most
 * 2 × WORKER_CONCURRENCY deliveries are started and unrecorded at once. Holding the slot through
 * the write left the connections idle for as long as they worked: in a 10,000-message drain here
 * a hand-over took 5 ms and the write of its outcome 7 (p50), and freeing the slot at the reply
 * delivered 44-68% more a second. A worker that dies sends again at most 2 × WORKER_CONCURRENCY
 * accepted, unrecorded messages (one, before); the window from a reply to its record grew with
 * the rate (docs/scaling.md#delivery-is-at-least-once has both measured).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly loop: JobLoop<DeliveryJob, ClaimedJob>;

  constructor(
    private readonly config: AppConfig,
    queue: DeliveryQueue,
    deliverMessage: DeliverMessageUseCase,
    mailFirst: MailFirst,
  ) {
    const { concurrency, leaseSeconds } = config.delivery;
    this.loop = new JobLoop(
      queue,
      {
        name: DeliveryWorker.name,
        concurrency,
        extraInFlight: concurrency,
        drainDeadlineMs: DRAIN_DEADLINE_MS,
        // A small stock of claimed messages, refilled a batch at a time while deliveries run, so
        // that a freed slot starts the next delivery at once instead of after two round trips to
        // the database, and each fetch and claim serves many. It holds 4 × WORKER_CONCURRENCY
        // at most, refilled once half empty: claims of 16 rather than 8 took about a tenth less
        // of PostgreSQL's CPU a message in a 10,000-message drain here, at the same rate. At
        // shutdown it is delivered with the rest (JobLoop keeps no more than that can run in
        // the drain's 20 s).
        stock: 4 * concurrency,
        // A claimed job still waiting after a sixth of its lease has its lease started again
        // before it runs (and is not run if another fetch has taken it), and the stock shrinks
        // while jobs run slowly; a message's copies start within another sixth
        // (DeliveryHandOver), so what is left of the lease covers the send.
        stockMaxAgeMs: (leaseSeconds * 1000) / 6,
      },
      {
        prepare: (jobs) => deliverMessage.claim(jobs),
        run: ({ job, message }, freeSlot) => deliverMessage.execute(job, message, freeSlot),
      },
    );
    // Mail waits for the CPU only while deliveries turn over: slots held for over a second wait on
    // mail servers (a site's lease, a slow reply), and events need not wait for them.
    mailFirst.watchDeliveries(
      () => this.loop.backlogged() && 2 * this.loop.slotsHeldLongerThan(SLOW_DELIVERY_MS) < concurrency,
    );
  }

  onApplicationBootstrap(): void {
    if (this.config.role !== 'api') this.loop.start();
  }

  /** Before the mailer and the database close (see DeliveryModule). */
  onModuleDestroy(): Promise<void> {
    return this.loop.stop();
  }
}
