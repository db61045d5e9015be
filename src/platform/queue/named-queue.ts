import { OnApplicationBootstrap } from '@nestjs/common';
import type PgBoss from 'pg-boss';
import { EntityManager } from 'typeorm';
import { JobQueue, LiveAmong, QueueJob } from './job-queue';
import { Wakeable, wakeAfterCommit } from './wake-after-commit';

export type QueueOptions = Omit<PgBoss.Queue, 'name'>;

/**
 * One queue of the job queue: its name and options, and every operation on its jobs, so that no
 * caller passes a queue name around. Loops of this process can be woken when new jobs commit.
 */
export abstract class NamedQueue<T extends object> implements OnApplicationBootstrap, Wakeable {
  abstract readonly name: string;
  private readonly listeners = new Set<() => void>();

  protected constructor(private readonly jobs: JobQueue) {}

  /** Lease and pg-boss's own retries (which only cover a dead worker or an unexpected error). */
  protected abstract options(): QueueOptions;

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.ensureQueue(this.name, this.options());
  }

  /** Fetched jobs are active until completed, failed, or their lease runs out. */
  fetch(count: number): Promise<QueueJob<T>[]> {
    return this.jobs.fetch<T>(this.name, count);
  }

  /** In the caller's transaction, with the change that finished the jobs. */
  complete(manager: EntityManager, ids: string[]): Promise<void> {
    return this.jobs.complete(manager, this.name, ids);
  }

  /** Starts the leases of these jobs again, for those this fetch still holds; returns their ids. */
  renewLeases(jobs: QueueJob<T>[]): Promise<string[]> {
    return this.jobs.renewLeases(this.name, jobs);
  }

  /** Hands jobs back unstarted, each to be fetched again after its `afterSeconds` (see JobQueue.putBack). */
  putBack(jobs: { job: QueueJob<T>; afterSeconds: number }[]): Promise<void> {
    return this.jobs.putBack(this.name, jobs);
  }

  /** Gives the job back to pg-boss's own retry policy (an unexpected error, not an outcome). */
  fail(id: string, error: Error): Promise<void> {
    return this.jobs.fail(this.name, id, error);
  }

  /** Jobs waiting to be fetched (created or waiting for a retry). */
  size(): Promise<number> {
    return this.jobs.size(this.name);
  }

  /** Loops in this process fetch at once instead of at their next poll (see wakeAfterCommit). */
  wake(): void {
    for (const listener of this.listeners) listener();
  }

  onWork(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * This queue's jobs, waiting, done or archived, whose subject (the id under `key` in their data)
   * is not among the live ones; returns how many.
   */
  protected deleteJobsWithoutSubject(
    key: keyof T & string,
    liveAmong: LiveAmong,
    signal?: AbortSignal,
  ): Promise<number> {
    return this.jobs.deleteJobsWithoutSubject(this.name, key, liveAmong, signal);
  }

  /** Jobs in one statement, in the caller's transaction; this process's loops wake when it commits. */
  protected async insert(
    manager: EntityManager,
    jobs: { data: T; priority?: number; startAt?: Date }[],
  ): Promise<void> {
    await this.jobs.insert(manager, this.name, jobs);
    if (jobs.length > 0) wakeAfterCommit(manager, this);
  }
}
