import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { JobQueue, LiveAmong } from './job-queue';
import { NamedQueue, QueueOptions } from './named-queue';

export const DELIVERY_QUEUE = 'message-delivery';

export interface DeliveryJob {
  messageId: string;
  attempt: number;
  /** The first job of a scheduled message, held until its scheduledAt: taking it makes the message due. */
  scheduled?: true;
  /**
   * Set on the retry of a message sent one copy per recipient when some copies are still to go.
   * The job says which, written with the outcome that accepted the others: no later attempt, nor
   * this job given back after its worker died, sends those again.
   */
  copies?: CopiesProgress;
}

/** How far earlier attempts got with a message's copies. */
export interface CopiesProgress {
  /** The positions (to, then cc, then bcc, as stored) of the recipients whose copy is still to be sent. */
  pending: number[];
  /** How many copies earlier attempts had accepted. */
  accepted: number;
}

/** A message's priority (MessagePriority, which lives above this layer), as the queue orders it. */
export type DeliveryPriority = 'low' | 'normal' | 'high';

const JOB_PRIORITY: Record<DeliveryPriority, number> = { low: 0, normal: 1, high: 2 };

/**
 * One job per delivery attempt of a message, put on the queue inside the transaction that made
 * the message due; this process's delivery loop wakes once that transaction commits.
 */
@Injectable()
export class DeliveryQueue extends NamedQueue<DeliveryJob> {
  readonly name = DELIVERY_QUEUE;

  constructor(
    jobs: JobQueue,
    private readonly config: AppConfig,
  ) {
    super(jobs);
  }

  protected options(): QueueOptions {
    return {
      // pg-boss's own retries only cover a worker that died holding the job, or a database that
      // failed mid-delivery (SMTP outcomes are scheduled by us): the job comes back after its
      // lease, then with doubling delays (capped by pg-boss at 2^16 s) while pg-boss keeps the
      // job (14 days).
      expireInSeconds: this.config.delivery.leaseSeconds,
      retryLimit: 50,
      retryDelay: 1,
      retryBackoff: true,
    };
  }

  /**
   * Delivery jobs in one statement, each at its moment when it has one: a retry's nextAttemptAt, or
   * a scheduled send's scheduledAt (the queue's own delayed job, so nothing polls for due messages).
   * The moment is absolute: a delay would count from the start of a transaction that may have been
   * gathering sends for a while (group commit), and so could fall before the moment the message shows.
   */
  async enqueue(
    manager: EntityManager,
    jobs: { job: DeliveryJob; priority: DeliveryPriority; startAt?: Date }[],
  ): Promise<void> {
    await this.insert(
      manager,
      jobs.map(({ job, priority, startAt }) => ({ data: job, priority: JOB_PRIORITY[priority], startAt })),
    );
  }

  /**
   * The jobs of messages deleted since (retention): a deleted message's jobs are all done, so none
   * is running. `liveMessages`: which of the given message ids still exist. Stops between
   * statements once `signal` is aborted; returns how many it deleted.
   */
  deleteJobsOfDeletedMessages(liveMessages: LiveAmong, signal?: AbortSignal): Promise<number> {
    return this.deleteJobsWithoutSubject('messageId', liveMessages, signal);
  }
}
