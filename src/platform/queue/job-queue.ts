import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Pool } from 'pg';
import PgBoss from 'pg-boss';
import { EntityManager } from 'typeorm';
import { preparedInTransaction } from '../database/prepared-in-transaction';
import { AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { poolModeOf } from '../database/pool-mode';
import { queueWakeUps } from './wake-after-commit';

export interface QueueJob<T> {
  id: string;
  data: T;
  /**
   * How many times pg-boss had handed the job out before this fetch; each fetch of a job that
   * was started before adds one. A lease renewal names it, so that it never renews the lease of
   * another worker's later fetch.
   */
  retryCount?: number;
}

/** How often a queue whose fetches find full batches has its statistics renewed (renewStatistics). */
const STATISTICS_EVERY_MS = 10_000;
/** Queue rows read per statement when deleting jobs whose subject is gone. */
const JOB_BATCH = 5_000;
// The session lock under which one process at a time starts pg-boss (beside the migration lock's key).
const QUEUE_START_LOCK_KEY = 0x6d61696d;

/** Which of the given ids (of what a queue's jobs are about) still exist: the context owning them answers. */
export type LiveAmong = (ids: string[]) => Promise<string[]>;

/**
 * The durable job queue: pg-boss in the application's own PostgreSQL, sharing its connection
 * pool. Jobs are written through the caller's transaction, so a job exists exactly when the
 * change that asked for it was committed.
 */
@Injectable()
export class JobQueue implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(JobQueue.name);
  private readonly boss: PgBoss;

  private readonly pool: Pool;
  /** Set at shutdown: no statistics are renewed from then on (the pool is about to close). */
  private stopping = false;
  /** When each queue's statistics were last renewed by this process (Date.now()). */
  private readonly statisticsRenewedAt = new Map<string, number>();

  constructor(
    private readonly database: Database,
    config: AppConfig,
  ) {
    const pool = database.pool;
    this.pool = pool;
    this.boss = new PgBoss({
      db: { executeSql: async (text, values) => pool.query(text, values) },
      schema: 'pgboss',
      // Jobs whose worker died are taken back after their lease; check at least twice per lease.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.floor(config.delivery.leaseSeconds / 2))),
      schedule: false,
    });
    this.boss.on('error', (error) => this.logger.error(error));
  }

  async onModuleInit(): Promise<void> {
    // Wakes the loops of the queues whose jobs a transaction committed (see wakeAfterCommit).
    if (!this.database.dataSource.subscribers.includes(queueWakeUps))
      this.database.dataSource.subscribers.push(queueWakeUps);
    await this.startOneAtATime();
    await this.indexFetchOrder();
  }

  /**
   * pg-boss creates its schema at its first start, and four processes starting together on a new
   * database failed there ("duplicate key value violates unique constraint
   * pg_namespace_nspname_index", a CREATE SCHEMA IF NOT EXISTS racing another): pg-boss's own
   * transaction lock did not keep them apart. A session lock held across the start does.
   */
  private async startOneAtATime(): Promise<void> {
    if (poolModeOf(this.database.dataSource) === 'transaction') return this.startBehindTransactionPooler();
    const lock = await this.pool.connect();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [QUEUE_START_LOCK_KEY]);
      await this.boss.start();
    } finally {
      const unlocked = await lock.query('SELECT pg_advisory_unlock($1)', [QUEUE_START_LOCK_KEY]).then(
        () => true,
        () => false,
      );
      // A connection that may still hold the lock is closed, not handed back to the pool.
      lock.release(!unlocked);
    }
  }

  /**
   * Behind a pooler in transaction mode a session lock stays on whichever server connection took
   * it (DATABASE_POOL_MODE, docs/configuration.md). The race above was two CREATE SCHEMA IF NOT
   * EXISTS at once: here the schema is made first in a transaction of ours under a transaction
   * lock, and pg-boss's own creation, which takes its transaction lock before its first
   * statement, finds it there.
   */
  private async startBehindTransactionPooler(): Promise<void> {
    await this.database.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [QUEUE_START_LOCK_KEY]);
      await manager.query('CREATE SCHEMA IF NOT EXISTS pgboss');
    });
    await this.boss.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.boss.stop({ graceful: false, close: false });
  }

  /**
   * pg-boss 10 fetches the next jobs by priority, then age, but indexes waiting jobs by start
   * time only: each fetch sorted every waiting job (3.6 ms at 4,000 waiting, growing with the
   * backlog; 0.09 ms with this index). Built once, by whichever process starts first.
   */
  private async indexFetchOrder(): Promise<void> {
    await this.pool
      .query(
        `CREATE INDEX IF NOT EXISTS mailroom_job_fetch_order ON pgboss.job (name, priority DESC, created_on, id)
         WHERE state < 'active'`,
      )
      .catch((error: { code?: string }) => {
        // Two processes starting together: the other one built it.
        if (error.code !== '42P07' && error.code !== '23505') throw error;
      });
  }

  /**
   * Creates the queue, or updates its options: pg-boss copies them into each job it inserts, so
   * a changed setting (the lease) must reach the queue. Processes starting together may race.
   */
  async ensureQueue(name: string, options: Omit<PgBoss.Queue, 'name'>, attempt = 1): Promise<void> {
    try {
      if (!(await this.boss.getQueue(name))) {
        await this.boss.createQueue(name, { name, ...options }).catch(async (error: unknown) => {
          if (!(await this.boss.getQueue(name))) throw error;
        });
      }
      await this.boss.updateQueue(name, { name, ...options });
    } catch (error) {
      // pg-boss's create_queue can deadlock with another process's (or this one's other queue):
      // PostgreSQL undoes one of them, which may simply try again.
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt * Math.random()));
      await this.ensureQueue(name, options, attempt + 1);
    }
  }

  /**
   * Jobs in one statement, in the caller's transaction; the queue's options (lease, retries) apply
   * to each. A job waits until `startAt` when given: a moment, not a delay, which would count
   * from the transaction's start.
   */
  async insert(
    manager: EntityManager,
    name: string,
    jobs: { data: object; priority?: number; startAt?: Date }[],
  ): Promise<void> {
    if (jobs.length === 0) return;
    await this.boss.insert(
      jobs.map(({ data, priority, startAt }) => ({
        name,
        data,
        priority,
        // pg-boss reads text ending in Z as the moment itself.
        ...(startAt !== undefined && { startAfter: startAt.toISOString() }),
      })),
      { db: executorOf(manager) },
    );
  }

  /**
   * The next jobs in the queue's order: by priority, then age. pg-boss picks them in that order
   * but returns them as its UPDATE … RETURNING does, in no order: a batch of a low and a normal
   * job could run the low one first.
   */
  async fetch<T>(name: string, batchSize: number): Promise<QueueJob<T>[]> {
    const jobs = await this.boss.fetch<T>(name, { batchSize, priority: true, includeMetadata: true });
    // A full batch: more may wait.
    if (jobs.length === batchSize) this.renewStatistics(name);
    jobs.sort(
      (a, b) =>
        b.priority - a.priority ||
        a.createdOn.getTime() - b.createdOn.getTime() ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    return jobs.map(({ id, data, retryCount }) => ({ id, data, retryCount }));
  }

  /**
   * Has the queue's table analyzed, in the background, at most every 10 s per process while its
   * fetches find full batches. Its statistics otherwise predate its backlog (autovacuum first
   * analyzes a new queue a minute or more after its first jobs, and a burst changes it within
   * seconds): believing few jobs waited, the planner sorted every waiting one at each fetch
   * through pg-boss's start-time index, 6-14 ms at 6,000 waiting webhook events, where walking
   * the fetch order's index (indexFetchOrder) to the batch took 0.1 ms. Forcing that walk is no
   * answer: with many jobs scheduled for later ahead of the due ones, the start-time index is
   * the right plan, and only statistics tell the two apart.
   */
  private renewStatistics(name: string): void {
    const now = Date.now();
    if (this.stopping || now - (this.statisticsRenewedAt.get(name) ?? 0) < STATISTICS_EVERY_MS) return;
    this.statisticsRenewedAt.set(name, now);
    void this.pool
      .query<{ partition: unknown }>(`SELECT partition_name AS partition FROM pgboss.queue WHERE name = $1`, [name])
      .then(async ({ rows }) => {
        const partition = rows[0]?.partition;
        // pg-boss names a queue's table j + hex digits; anything else is not analyzed.
        // SKIP_LOCKED: waiting for a vacuum of the table would cancel autovacuum's run.
        if (!this.stopping && typeof partition === 'string' && /^j[0-9a-f]+$/.test(partition))
          await this.pool.query(`ANALYZE (SKIP_LOCKED) pgboss.${partition}`);
      })
      .catch((error: Error) => this.logger.warn(`The ${name} queue's statistics were not renewed: ${error.message}`));
  }

  /** In the caller's transaction. */
  async complete(manager: EntityManager, name: string, ids: string[]): Promise<void> {
    await (this.boss.complete as unknown as CompleteJobs).call(this.boss, name, ids, undefined, {
      db: executorOf(manager),
    });
  }

  /**
   * Starts the leases of jobs again from now, for those this fetch still holds (active, and not
   * fetched again since: same retry count), and returns their ids; a job missing from the answer
   * outlived its lease and is the queue's again. pg-boss 10 has no call for it: its maintenance
   * expires a job once `started_on + expire_in` has passed, so this moves `started_on` (pg-boss
   * is pinned to 10.x, whose job table this names).
   */
  async renewLeases(name: string, jobs: QueueJob<unknown>[]): Promise<string[]> {
    if (jobs.length === 0) return [];
    const { rows } = await this.pool.query<{ id: string }>(
      `UPDATE pgboss.job j SET started_on = now()
       FROM unnest($2::uuid[], $3::integer[]) AS held(id, retry_count)
       WHERE j.name = $1 AND j.id = held.id AND j.retry_count = held.retry_count AND j.state = 'active'
       RETURNING j.id`,
      [name, jobs.map((job) => job.id), jobs.map((job) => job.retryCount ?? 0)],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Hands jobs this fetch still holds back to the queue untouched, each to be fetched again once
   * its `afterSeconds` have passed, as if never fetched (no retry counted): a loop's turns were
   * full (JobLoop's `turnsOf`). Like renewLeases, beyond pg-boss 10's API: it names its job table.
   */
  async putBack(name: string, jobs: { job: QueueJob<unknown>; afterSeconds: number }[]): Promise<void> {
    if (jobs.length === 0) return;
    await this.pool.query(
      `UPDATE pgboss.job j SET state = 'created', started_on = NULL, start_after = now() + make_interval(secs => held.after)
       FROM unnest($2::uuid[], $3::integer[], $4::float8[]) AS held(id, retry_count, after)
       WHERE j.name = $1 AND j.id = held.id AND j.retry_count = held.retry_count AND j.state = 'active'`,
      [
        name,
        jobs.map(({ job }) => job.id),
        jobs.map(({ job }) => job.retryCount ?? 0),
        jobs.map(({ afterSeconds }) => afterSeconds),
      ],
    );
  }

  /** Gives the job back to pg-boss's own retry policy (an unexpected error, not an SMTP outcome). */
  async fail(name: string, id: string, error: Error): Promise<void> {
    await this.boss.fail(name, id, { message: error.message });
  }

  /**
   * Deletes the jobs of queue `name`, waiting, done or archived, whose subject is gone: the id their
   * data holds under `key` is not among those `liveAmong` answers (the queue names no table of the
   * application's). pg-boss would drop done jobs itself, but only a week after archiving them.
   * JOB_BATCH jobs at a time, in id order; it stops between batches once `signal` is aborted.
   * Returns how many it deleted.
   */
  async deleteJobsWithoutSubject(
    name: string,
    key: string,
    liveAmong: LiveAmong,
    signal?: AbortSignal,
  ): Promise<number> {
    let deleted = 0;
    for (const table of ['pgboss.job', 'pgboss.archive']) {
      let after = '00000000-0000-0000-0000-000000000000';
      for (let read = JOB_BATCH; read === JOB_BATCH && !signal?.aborted;) {
        // By (name, id), the primary key of both tables: each job is read once, however many there are.
        const jobs = await this.database.query<{ id: string; subject: string | null }[]>(
          `SELECT id, data->>$2 AS subject FROM ${table} WHERE name = $1 AND id > $3 ORDER BY id LIMIT ${JOB_BATCH}`,
          [name, key, after],
        );
        read = jobs.length;
        if (read === 0) break;
        after = jobs[read - 1].id;
        const live = new Set(await liveAmong([...new Set(jobs.flatMap((job) => job.subject ?? []))]));
        const orphans = jobs.filter((job) => job.subject === null || !live.has(job.subject)).map((job) => job.id);
        if (orphans.length === 0) continue;
        const [, count] = await this.database.query<[unknown, number]>(
          `DELETE FROM ${table} WHERE name = $1 AND id = ANY($2::uuid[])`,
          [name, orphans],
        );
        deleted += count;
      }
    }
    return deleted;
  }

  /** Jobs waiting to be fetched (created or waiting for a retry). */
  size(name: string): Promise<number> {
    return this.boss.getQueueSize(name);
  }
}

/**
 * pg-boss 10's complete() as it runs: its typings offer (name, ids, options), but it reads the
 * third argument as the jobs' output and completes them on its own pool, outside our transaction.
 */
type CompleteJobs = (
  name: string,
  ids: string[],
  output: undefined,
  options: PgBoss.ConnectionOptions,
) => Promise<unknown>;

/**
 * pg-boss runs its statements through the caller's transaction, each planned once per connection
 * (preparedInTransaction): they run for every send and every delivery's completion, and planning
 * a completion took longer than running it.
 */
function executorOf(manager: EntityManager): PgBoss.Db {
  return {
    executeSql: async (text, values) => ({ rows: await preparedInTransaction(manager, text, values ?? []) }),
  };
}
