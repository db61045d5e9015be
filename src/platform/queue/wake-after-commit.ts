import type { EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';

/** A queue whose loops in this process can be woken. */
export interface Wakeable {
  wake(): void;
}

// Where a transaction keeps the queues it put jobs on, until it ends.
const KEY = 'queuesToWake';
const queuesOf = (runner: QueryRunner) => runner.data[KEY] as Set<Wakeable> | undefined;

/**
 * Wakes `queue`'s loops in this process once the jobs just inserted through `manager` are
 * committed: at once outside a transaction, else when it commits (and never if it rolls back),
 * so that a worker fetches them now instead of at its next poll and no caller has to remember.
 */
export function wakeAfterCommit(manager: EntityManager, queue: Wakeable): void {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive) return queue.wake();
  const queues = queuesOf(runner) ?? (runner.data[KEY] = new Set<Wakeable>());
  queues.add(queue);
}

/** Registered on the DataSource: TypeORM calls it when a transaction (or a savepoint) ends. */
export const queueWakeUps: EntitySubscriberInterface = {
  afterTransactionCommit({ queryRunner }) {
    // A released savepoint: the jobs are not committed until the outer transaction is.
    if (queryRunner.isTransactionActive) return;
    const queues = queuesOf(queryRunner);
    delete queryRunner.data[KEY];
    queues?.forEach((queue) => queue.wake());
  },
  afterTransactionRollback({ queryRunner }) {
    if (!queryRunner.isTransactionActive) delete queryRunner.data[KEY];
  },
};
