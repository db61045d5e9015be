import type { EntityManager } from 'typeorm';
import type { Database } from './database';

export interface GroupCommitOptions {
  /** Items per transaction at most. */
  maxBatch: number;
  /** Transactions written at once at most. */
  maxWriters: number;
  /**
   * How long the first write waits, so that what arrives meanwhile shares it: null starts it the
   * moment the first item comes; 0 waits for what the same turn of the event loop brings.
   */
  gatherMs: number | null;
  /**
   * Pauses before writing a failed batch again, in a new transaction; when they run out the
   * batch fails. For items whose effects already happened elsewhere (a mail server's 250). A
   * shared batch is retried so only while the database is out of reach (otherwise it is split).
   */
  retryDelaysMs?: number[];
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/**
 * Group commit: items submitted while a transaction is being written wait for the next one and
 * share it, so that under load an item costs a share of a few statements and one fsync instead
 * of a transaction of its own, and none waits longer than one transaction for company. `write`
 * stores a batch in the transaction it is given and returns one result per item, in order; each
 * submitter learns its result once the transaction has committed, or the error that undid it.
 *
 * One item's bad value (a NUL PostgreSQL text refuses) must not undo the others sharing its
 * transaction: a shared batch that PostgreSQL refuses for a value it holds (isDataException) is
 * written again in halves, down to the item that fails alone. That costs about 2·log2(batch)
 * transactions per bad item, and none when every write succeeds; any other failure (an outage, a
 * full disk) fails the whole batch at once, after its retries, as it would fail every half too.
 */
export class GroupCommit<Item, Result> {
  private readonly waiting: Waiting<Item, Result>[] = [];
  private writers = 0;

  constructor(
    private readonly database: Database,
    private readonly write: (manager: EntityManager, items: Item[]) => Promise<Result[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.writers < this.options.maxWriters) void this.writeWaiting();
    });
  }

  private async writeWaiting(): Promise<void> {
    this.writers++;
    try {
      const { gatherMs } = this.options;
      if (gatherMs !== null)
        await new Promise((resolve) => (gatherMs === 0 ? setImmediate(resolve) : setTimeout(resolve, gatherMs)));
      while (this.waiting.length > 0) await this.commit(this.waiting.splice(0, this.options.maxBatch));
    } finally {
      this.writers--;
    }
  }

  /** Settles every submitter of the batch: with its result, or with the error of the smallest part of it that failed. */
  private async commit(batch: Waiting<Item, Result>[]): Promise<void> {
    try {
      const results = await this.writeWithRetries(batch.map((w) => w.item));
      batch.forEach((w, i) => w.resolve(results[i]));
    } catch (error) {
      // Only a value PostgreSQL refused is one item's fault; anything else (an outage, a full disk,
      // a read-only failover) would fail every half too, and splitting would only multiply retries.
      if (batch.length === 1 || !isDataException(error)) {
        for (const w of batch) w.reject(error);
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await this.commit(batch.slice(0, half));
      await this.commit(batch.slice(half));
    }
  }

  private async writeWithRetries(items: Item[]): Promise<Result[]> {
    for (let failures = 0; ; failures++) {
      try {
        return await this.database.transaction((manager) => this.write(manager, items));
      } catch (error) {
        const delay = this.options.retryDelaysMs?.[failures];
        // A value PostgreSQL refused is refused again: a shared batch is split at once (commit), a
        // lone item fails at once. The delays are for what may pass (an outage).
        if (delay === undefined || isDataException(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }
}

/**
 * PostgreSQL refused a value the statement carried (SQLSTATE class 22, "data exception": a NUL in
 * text or JSON, an invalid byte sequence): the fault of what was written, not of the database.
 */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
