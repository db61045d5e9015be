import { Logger } from '@nestjs/common';
import { QueueJob } from './job-queue';
import { NamedQueue } from './named-queue';
import { Waker } from './waker';

// Between fetches that found nothing; jobs committed in this process wake the loop at once.
const IDLE_POLL_MS = 250;
// Between fetches that found nothing while jobs put back are coming due (they wake nothing).
const PACED_POLL_MS = 20;
// The shortest run a put-back's pace assumes, before any job has ended or when jobs end at once.
const MIN_RUN_MS = 20;
// The soonest a job put back comes due: the loop must fetch past a full key's whole backlog
// before the first of it comes back, or the jobs behind it (another user's) are never reached.
const MIN_PUT_BACK_MS = 1_000;

/** What a loop runs: fetched jobs, readied as a batch, then run one per slot. */
export interface JobHandler<T extends object, W extends { job: QueueJob<T> }> {
  /**
   * Readies a fetched batch to run (the delivery loop claims its messages in one transaction).
   * A job left out is the handler's to complete.
   */
  prepare(jobs: QueueJob<T>[]): Promise<W[]>;
  /**
   * One job: resolves once its outcome is committed, and holds its slot until then, or until it
   * calls `freeSlot` (a delivery: once the mail server has answered); from then on it stays in
   * flight, without a slot, while its outcome is written (JobLoopOptions.extraInFlight).
   */
  run(work: W, freeSlot: () => void): Promise<void>;
  /**
   * Fair turns (optional): the keys a job counts against (its user, its target), each with how
   * many jobs of that key this loop may hold at once, readied or running. A fetched job whose
   * key is full is put back on the queue for a while, so that one key's backlog (a user's
   * endpoints that never answer) cannot take every slot, and the loop reaches other keys' jobs
   * behind it. Among readied jobs, the one whose first key runs the fewest goes first.
   */
  turnsOf?(work: W): Turn[];
}

/** A key a job counts against, and how many jobs of that key may be held at once. */
export interface Turn {
  key: string;
  limit: number;
}

export interface JobLoopOptions {
  /** Names the loop in the log. */
  name: string;
  /** Jobs running at once. */
  concurrency: number;
  /**
   * How many of the `concurrency` slots may be taken now, when that changes (a loop that gives
   * way to another): asked before each start, at least 1; jobs already running are not stopped.
   * Without it, all of them.
   */
  slotsNow?: () => number;
  /**
   * How many jobs beyond `concurrency` may be in flight: a job that freed its slot early
   * (JobHandler.run) is in flight until it ends, so at most concurrency + extraInFlight jobs are
   * started and unfinished, at most `concurrency` of them in slots. 0 (the default): a slot is
   * held until its job ends.
   */
  extraInFlight?: number;
  /** How long stop() waits for the jobs in flight; those unfinished return after their lease. */
  drainDeadlineMs: number;
  /**
   * Jobs to hold readied ahead of the slots, refilled from half full to full while jobs run, so
   * that a freed slot starts the next job at once and each fetch serves many. Without a stock,
   * the loop fetches exactly for its free slots, the moment one frees.
   */
  stock?: number;
  /**
   * How long a job may wait in the stock and still start on the lease it was fetched with. One
   * that waited longer has its lease started again first, and is run only if it still held it:
   * by then its lease may be close to running out, and another worker taking the job over while
   * this one still sends it would send the message twice.
   */
  stockMaxAgeMs?: number;
  /**
   * With turnsOf: the longest a job whose key is full is put back for. A key's jobs put back come
   * due one after the other at the pace its turns free (its limit a run), the first a second from now.
   */
  putBackMaxSeconds?: number;
}

/**
 * Keeps up to `concurrency` jobs of one queue in slots (and up to `extraInFlight` more in flight,
 * when the handler frees slots early), fetching more the moment there is room,
 * so the queue never waits out a polling interval while there is work (and a 250 ms one when
 * there is none). A job whose handler throws goes back to the queue's own retry policy. Stopping
 * ends the fetching and drains what was fetched, up to a deadline.
 */
export class JobLoop<T extends object, W extends { job: QueueJob<T> }> {
  private readonly logger: Logger;
  /** Every job started and not yet ended, in a slot or not. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Of inFlight, the jobs holding a slot, each with when it started (performance.now()). */
  private readonly inSlots = new Set<{ at: number }>();
  /** Ends the loop's wait for room (untilRoom): called when a job frees its slot or ends. */
  private wakeForRoom = () => {};
  /** Set while a launchReadySoon is due. */
  private launchPending = false;
  private readonly ready: { work: W; fetchedAt: number }[] = [];
  /** Jobs held (readied or running) per turn key, and running per key; both only with turnsOf. */
  private readonly held = new Map<string, number>();
  private readonly runningByKey = new Map<string, number>();
  /** Per full turn key, when the last of its jobs put back comes due (performance.now()). */
  private readonly dueUntil = new Map<string, number>();
  /** A moving mean of how long jobs hold a slot, which bounds the stock when stockMaxAgeMs is set. */
  private meanRunMs = 0;
  private readonly waker = new Waker();
  private running?: Promise<void>;
  private stopping = false;
  private unsubscribe = () => {};

  constructor(
    private readonly queue: NamedQueue<T>,
    private readonly options: JobLoopOptions,
    private readonly handler: JobHandler<T, W>,
  ) {
    this.logger = new Logger(options.name);
  }

  start(): void {
    this.unsubscribe = this.queue.onWork(() => this.waker.wake());
    this.running = this.run();
  }

  /** Stops fetching, then runs what is in flight and in stock to its end, or to the deadline. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unsubscribe();
    this.waker.wake();
    const drained = (this.running ?? Promise.resolve()).then(() => Promise.all(this.inFlight)).then(() => true);
    let deadline: NodeJS.Timeout | undefined;
    const inTime = await Promise.race([
      drained,
      new Promise<false>((resolve) => (deadline = setTimeout(resolve, this.options.drainDeadlineMs, false))),
    ]);
    clearTimeout(deadline);
    const unfinished = this.inFlight.size + this.ready.length;
    if (!inTime)
      this.logger.warn(`${unfinished} ${this.queue.name} jobs unfinished at shutdown; they return after their lease`);
  }

  private async run(): Promise<void> {
    while (!this.stopping || this.ready.length > 0) {
      this.launchReady();
      if (this.stopping) {
        if (this.inFlight.size > 0) await this.untilRoom();
        continue;
      }
      const wanted = this.wanted();
      if (wanted > 0 && (await this.refill(wanted))) continue;
      if (!this.hasRoom()) await this.untilRoom();
      else if (this.ready.length === 0) await this.waker.sleep(this.comingDue() ? PACED_POLL_MS : IDLE_POLL_MS);
    }
  }

  /** Starts readied jobs while there is room. */
  private launchReady(): void {
    while (this.hasRoom() && this.ready.length > 0) this.launchUnlessStale(this.takeNext());
  }

  /**
   * launchReady once the code that freed room has run to its next await (a microtask): not from
   * inside it, where the next job's start would run ahead of the rest of the freeing job (its
   * outcome's record) and of the loop's own count of the job that ended.
   */
  private launchReadySoon(): void {
    if (this.launchPending) return;
    this.launchPending = true;
    queueMicrotask(() => {
      this.launchPending = false;
      try {
        this.launchReady();
      } catch (error) {
        this.logger.error(error);
      }
    });
  }

  /** How many jobs may start now: free slots, within the bound on jobs in flight. */
  private room(): number {
    const { concurrency, extraInFlight = 0, slotsNow } = this.options;
    // At least one: a loop given none would wait for ever (or, stopping, spin) with jobs in stock.
    const slots = slotsNow ? Math.max(1, Math.min(concurrency, slotsNow())) : concurrency;
    return Math.max(0, Math.min(slots - this.inSlots.size, concurrency + extraInFlight - this.inFlight.size));
  }

  /** Whether jobs are waiting for a slot: every slot is taken and the stock holds more. */
  backlogged(): boolean {
    return this.ready.length > 0 && !this.hasRoom();
  }

  /** How many slots are held by jobs that started more than `ms` ago. */
  slotsHeldLongerThan(ms: number): number {
    const before = performance.now() - ms;
    let held = 0;
    for (const { at } of this.inSlots) if (at < before) held++;
    return held;
  }

  private hasRoom(): boolean {
    return this.room() > 0;
  }

  /**
   * Until a job frees its slot or ends; with slotsNow, at most IDLE_POLL_MS, since the slots it
   * gives may grow while every job in flight still runs.
   */
  private untilRoom(): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.options.slotsNow ? setTimeout(resolve, IDLE_POLL_MS) : undefined;
      this.wakeForRoom = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** How many jobs to fetch now: none while the stock is over half full. */
  private wanted(): number {
    const stock = this.stockNow();
    if (stock === 0) return Math.max(0, this.room() - this.ready.length);
    return this.ready.length <= stock / 2 ? stock - this.ready.length : 0;
  }

  /**
   * The stock, cut to what the slots start within stockMaxAgeMs and run within the drain deadline
   * at the pace jobs run now (with a margin of two): when jobs run slowly (a mail server taking
   * its time) there is no stock, and jobs are fetched only for free slots, so that none waits out
   * its lease, in stock or after a stop that could not run it.
   */
  private stockNow(): number {
    const { concurrency, stock = 0, stockMaxAgeMs = Infinity, drainDeadlineMs } = this.options;
    if (this.meanRunMs === 0) return stock;
    const withinMs = Math.min(stockMaxAgeMs, drainDeadlineMs);
    return Math.min(stock, Math.floor((concurrency * withinMs) / (2 * this.meanRunMs)));
  }

  /** Fetches and readies up to `count` jobs into the stock; false when there were none. */
  private async refill(count: number): Promise<boolean> {
    try {
      // The lease starts when the job is fetched, so its age in stock counts from then.
      const fetchedAt = performance.now();
      const jobs = await this.queue.fetch(count);
      if (jobs.length === 0) return false;
      const overTurn: { job: QueueJob<T>; afterSeconds: number }[] = [];
      for (const work of await this.handler.prepare(jobs)) {
        const full = this.takeTurns(work);
        if (full === undefined) this.ready.push({ work, fetchedAt });
        else overTurn.push({ job: work.job, afterSeconds: this.putBackSeconds(full) });
      }
      if (overTurn.length > 0) await this.queue.putBack(overTurn);
      return true;
    } catch (error) {
      this.logger.error(error);
      return false;
    }
  }

  /** Counts the job against its turn keys, unless one of them is full: then that turn, and nothing counted. */
  private takeTurns(work: W): Turn | undefined {
    const turns = this.handler.turnsOf?.(work) ?? [];
    const full = turns.find(({ key, limit }) => (this.held.get(key) ?? 0) >= limit);
    if (full) return full;
    for (const { key } of turns) this.held.set(key, (this.held.get(key) ?? 0) + 1);
    return undefined;
  }

  private releaseTurns(work: W): void {
    for (const { key } of this.handler.turnsOf?.(work) ?? []) {
      const held = (this.held.get(key) ?? 0) - 1;
      if (held > 0) this.held.set(key, held);
      else this.held.delete(key);
    }
  }

  /** The readied job whose first turn key has the fewest running (the oldest among equals). */
  private takeNext(): { work: W; fetchedAt: number } {
    let best = 0;
    if (this.handler.turnsOf) {
      const runningOf = (i: number) => this.runningByKey.get(this.handler.turnsOf!(this.ready[i].work)[0]?.key) ?? 0;
      for (let i = 1, fewest = runningOf(0); i < this.ready.length && fewest > 0; i++) {
        const running = runningOf(i);
        if (running < fewest) [best, fewest] = [i, running];
      }
    }
    return this.ready.splice(best, 1)[0];
  }

  /**
   * When a job of the full turn `full` comes back: a second from now at the soonest
   * (MIN_PUT_BACK_MS), and after the key's other jobs put back, spaced at the pace its turns free
   * (`limit` jobs a run). Put back all alike (for a second, say), a busy key's whole backlog came
   * due at once, was fetched, mostly put back again, and left its turns idle until the next round;
   * at its pace, it comes back about as fast as it can run, and the jobs of other keys behind it
   * are fetched meanwhile.
   */
  private putBackSeconds(full: Turn): number {
    const { putBackMaxSeconds = 1 } = this.options;
    const now = performance.now();
    const runMs = Math.max(MIN_RUN_MS, this.meanRunMs);
    const latest = now + putBackMaxSeconds * 1000;
    const due = Math.min(latest, Math.max(this.dueUntil.get(full.key) ?? 0, now + MIN_PUT_BACK_MS));
    this.dueUntil.set(full.key, Math.min(latest, due + runMs / full.limit));
    return (due - now) / 1000;
  }

  /** Whether jobs put back are still to come due; forgets the keys whose jobs all have. */
  private comingDue(): boolean {
    const now = performance.now();
    for (const [key, until] of this.dueUntil) if (until <= now) this.dueUntil.delete(key);
    return this.dueUntil.size > 0;
  }

  private launchUnlessStale({ work, fetchedAt }: { work: W; fetchedAt: number }): void {
    const { stockMaxAgeMs } = this.options;
    if (stockMaxAgeMs === undefined || performance.now() - fetchedAt <= stockMaxAgeMs) return this.launch(work);
    this.launch(work, async () => {
      const [renewed] = await this.queue.renewLeases([work.job]);
      if (!renewed)
        this.logger.warn(
          { jobId: work.job.id, ...work.job.data },
          `A ${this.queue.name} job outlived its lease in stock; it is left to the queue`,
        );
      return renewed !== undefined;
    });
  }

  /** Runs the job in a slot; with `mayRun`, only once it says yes (the slot is held meanwhile). */
  private launch(work: W, mayRun?: () => Promise<boolean>): void {
    const { job } = work;
    const slot = { at: performance.now() };
    const firstKey = this.handler.turnsOf?.(work)[0]?.key;
    if (firstKey !== undefined) this.runningByKey.set(firstKey, (this.runningByKey.get(firstKey) ?? 0) + 1);
    // Freed once, however often a job calls it.
    const freeSlot = () => {
      if (!this.inSlots.delete(slot)) return;
      // The pace of the slots, which sizes the stock: how long a job holds one.
      const ranMs = performance.now() - slot.at;
      this.meanRunMs = this.meanRunMs === 0 ? ranMs : 0.8 * this.meanRunMs + 0.2 * ranMs;
      // The next readied job takes the slot at once, not once the loop is back from a refill: the
      // slot would sit empty through the fetch and the claim, and, to a loop giving way to this
      // one (slotsNow), this one would look as if nothing waited for a slot.
      this.launchReadySoon();
      this.wakeForRoom();
    };
    this.inSlots.add(slot);
    const running = (
      mayRun
        ? mayRun().then((yes) => (yes ? this.handler.run(work, freeSlot) : undefined))
        : this.handler.run(work, freeSlot)
    )
      .catch(async (error: unknown) => {
        this.logger.error(
          { err: error, jobId: job.id, ...job.data },
          `A ${this.queue.name} job failed unexpectedly; it will be retried`,
        );
        await this.queue.fail(job.id, error as Error).catch(() => undefined);
      })
      .finally(() => {
        freeSlot();
        this.releaseTurns(work);
        if (firstKey !== undefined) {
          const left = this.runningByKey.get(firstKey)! - 1;
          if (left > 0) this.runningByKey.set(firstKey, left);
          else this.runningByKey.delete(firstKey);
        }
        this.inFlight.delete(running);
        // Room in flight (extraInFlight) is room too.
        this.launchReadySoon();
        this.wakeForRoom();
      });
    this.inFlight.add(running);
  }
}
