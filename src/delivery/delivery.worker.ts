import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { JobQueue, QueueJob } from '../queue/job-queue';
import { DeliverMessageUseCase } from './deliver-message.use-case';
import { DeliveryJob, DeliveryQueue, DELIVERY_QUEUE } from './delivery-queue';
import { DeliverableMessage } from './delivery.repository';

// Between fetches that found nothing; sends in this process wake the worker at once.
const IDLE_POLL_MS = 250;
// SPEC §8 gives shutdown 30 s: in-flight deliveries get most of it, the rest is for closing.
const DRAIN_DEADLINE_MS = 25_000;

/**
 * Keeps up to WORKER_CONCURRENCY deliveries in flight. It fetches as many jobs as it has free
 * slots the moment a slot frees up, so the queue never waits out a polling interval while there
 * is work. Runs in `worker` and `all` processes.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DeliveryWorker.name);
  private readonly inFlight = new Set<Promise<void>>();
  private running?: Promise<void>;
  private stopping = false;
  private woken = false;
  private endIdle = () => {};
  private unsubscribe = () => {};

  constructor(
    private readonly config: AppConfig,
    private readonly queue: JobQueue,
    private readonly deliveryQueue: DeliveryQueue,
    private readonly deliverMessage: DeliverMessageUseCase,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.role === 'api') return;
    this.unsubscribe = this.deliveryQueue.onWork(() => this.wake());
    this.running = this.run();
  }

  /**
   * Stops fetching, then waits for the deliveries in flight, before the mailer and the database
   * close (see DeliveryModule); any still running at the deadline are left to their lease.
   */
  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    this.unsubscribe();
    this.wake();
    await this.running;
    let deadline: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.all(this.inFlight).then(() => true),
      new Promise<false>((resolve) => (deadline = setTimeout(resolve, DRAIN_DEADLINE_MS, false))),
    ]);
    clearTimeout(deadline);
    if (!drained) this.logger.warn(`${this.inFlight.size} deliveries still running at shutdown; their jobs return after the lease`);
  }

  private async run(): Promise<void> {
    const concurrency = this.config.delivery.concurrency;
    while (!this.stopping) {
      if (this.inFlight.size >= concurrency) {
        await Promise.race(this.inFlight);
        continue;
      }
      const jobs = await this.queue.fetch<DeliveryJob>(DELIVERY_QUEUE, concurrency - this.inFlight.size).catch((error: unknown) => {
        this.logger.error(error);
        return [];
      });
      if (jobs.length === 0) {
        await this.idle();
        continue;
      }
      const claimed = await this.deliverMessage.claim(jobs).catch((error: unknown) => {
        this.logger.error(error);
        return [];
      });
      for (const { job, message } of claimed) this.start(job, message);
    }
  }

  private start(job: QueueJob<DeliveryJob>, message: DeliverableMessage): void {
    const delivery = this.deliverMessage
      .execute(job, message)
      .then(() => undefined)
      .catch(async (error: unknown) => {
        this.logger.error({ err: error, messageId: job.data.messageId }, 'Delivery failed unexpectedly; the job will be retried');
        await this.queue.fail(DELIVERY_QUEUE, job.id, error as Error).catch(() => undefined);
      })
      .finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
  }

  private wake(): void {
    this.woken = true;
    this.endIdle();
  }

  /** Sleeps until the poll interval passes, a send in this process wakes us, or shutdown. */
  private async idle(): Promise<void> {
    if (!this.woken) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        this.endIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.endIdle = () => {};
    }
    this.woken = false;
  }
}
