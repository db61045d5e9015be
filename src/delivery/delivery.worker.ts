import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { DeliveryJob, DeliveryQueue } from '../queue/delivery-queue';
import { QueueJob } from '../queue/job-queue';
import { Waker } from '../queue/waker';
import { DeliverMessageUseCase } from './deliver-message.use-case';
import { DeliverableMessage } from './delivery.repository';

// Between fetches that found nothing; sends in this process wake the worker at once.
const IDLE_POLL_MS = 250;
// SPEC §8 gives shutdown 30 s: webhooks drain first (5 s at most), then deliveries (20 s at
// most), and the rest is for closing.
const DRAIN_DEADLINE_MS = 20_000;

/**
 * Keeps up to WORKER_CONCURRENCY deliveries in flight, fetching more the moment there is room,
 * so the queue never waits out a polling interval while there is work. Runs in `worker` and
 * `all` processes.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly inFlight = new Set<Promise<void>>();
  private readonly ready: { job: QueueJob<DeliveryJob>; message: DeliverableMessage }[] = [];
  private running?: Promise<void>;
  private stopping = false;
  private readonly waker = new Waker();
  private unsubscribe = () => {};

  constructor(
    private readonly config: AppConfig,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly deliverMessage: DeliverMessageUseCase,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.unsubscribe = this.deliveryQueue.onWork(() => this.waker.wake());
    this.running = this.run();
  }

  /**
   * Stops fetching, then finishes the deliveries in flight and in stock, before the mailer and
   * the database close (see DeliveryModule); any unfinished at the deadline are left to their lease.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.unsubscribe();
    this.waker.wake();
    const drained = (this.running ?? Promise.resolve())
      .then(() => Promise.all(this.inFlight))
      .then(() => true);
    let deadline: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([drained, new Promise<false>((resolve) => (deadline = setTimeout(resolve, DRAIN_DEADLINE_MS, false)))]);
    clearTimeout(deadline);
    if (!inTime) this.logger.warn(`${this.inFlight.size + this.ready.length} deliveries unfinished at shutdown; their jobs return after the lease`);
  }

  /**
   * Keeps the slots busy from a small stock of claimed messages, refilled while deliveries run,
   * so that a freed slot starts the next delivery at once instead of after two round trips to
   * the database. The stock holds two batches at most; at shutdown it is delivered with the rest.
   */
  private async run(): Promise<void> {
    const concurrency = this.config.delivery.concurrency;
    while (!this.stopping || this.ready.length > 0) {
      while (this.inFlight.size < concurrency && this.ready.length > 0) {
        const { job, message } = this.ready.shift()!;
        this.start(job, message);
      }
      if (this.stopping) {
        await Promise.race(this.inFlight);
        continue;
      }
      // Refilled a batch at a time, from half full to full, so each fetch and claim serves many.
      if (this.ready.length <= concurrency && (await this.refill(2 * concurrency - this.ready.length))) continue;
      if (this.inFlight.size >= concurrency) await Promise.race(this.inFlight);
      else if (this.ready.length === 0) await this.waker.sleep(IDLE_POLL_MS);
    }
  }

  /** Fetches and claims up to `count` jobs into the stock; false when there were none. */
  private async refill(count: number): Promise<boolean> {
    try {
      const jobs = await this.deliveryQueue.fetch(count);
      if (jobs.length === 0) return false;
      this.ready.push(...(await this.deliverMessage.claim(jobs)));
      return true;
    } catch (error) {
      this.logger.error(error);
      return false;
    }
  }

  /**
   * A slot is held until the outcome is committed, not only until the mail server answers: a
   * worker that dies then sends again at most one accepted, unrecorded message per slot.
   */
  private start(job: QueueJob<DeliveryJob>, message: DeliverableMessage): void {
    const delivery = this.deliverMessage
      .execute(job, message)
      .catch(async (error: unknown) => {
        this.logger.error({ err: error, messageId: job.data.messageId }, 'Delivery failed unexpectedly; the job will be retried');
        await this.deliveryQueue.fail(job.id, error as Error).catch(() => undefined);
      })
      .finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }
}
