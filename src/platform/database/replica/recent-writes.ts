import { Injectable } from '@nestjs/common';
import { PreparedStatements } from '../prepared-statements';
import { ReadReplica } from './read-replica';

/** SPEC §8: a user's reads within this long of its own write go to the primary. */
export const OWN_WRITE_WINDOW_MS = 5_000;
/**
 * A process marks an owner's write in the shared table at most this often: a burst of sends is one
 * upsert a second, not one each. Readers widen the window by as much, so a write left unmarked
 * (the second send of a second) is still covered.
 */
const MARK_EVERY_MS = 1_000;
const SHARED_WINDOW_MS = OWN_WRITE_WINDOW_MS + MARK_EVERY_MS;
/** Past this many remembered owners the forgotten ones are swept (a scan of the map, rarely). */
const SWEEP_PAST = 10_000;

/**
 * Who wrote lately, so that their reads see their writes whatever the replica's lag
 * (docs/scaling.md#read-replicas). Another API process may serve the read that follows a write,
 * so the marks are shared, in the primary's `recent_writes`; this process's own marks answer
 * without a query. Nothing is marked or asked without a replica (DATABASE_READ_URL).
 */
@Injectable()
export class RecentWrites {
  /** Owner → this process's last mark in the table: when, and its upsert (in flight or done). */
  private readonly marks = new Map<string, { at: number; done: Promise<void> }>();
  /** Owner → when this process last saw it write (ms). */
  private readonly wrote = new Map<string, number>();

  constructor(
    /** Prepared: a replica's every read request may ask, and every change marks. */
    private readonly statements: PreparedStatements,
    private readonly replica: ReadReplica,
  ) {}

  /**
   * After a write of `ownerId` (an API change, an SMTP submission) and before its answer: reads
   * from then on see it. A write within a second of the last mark waits for that mark's upsert
   * rather than making its own, so no answer goes out before a mark covering it is committed.
   */
  note(ownerId: string, now = Date.now()): Promise<void> {
    if (!this.replica.configured) return Promise.resolve();
    this.wrote.set(ownerId, now);
    const last = this.marks.get(ownerId);
    if (last && now - last.at < MARK_EVERY_MS) return last.done;
    const done = this.statements
      .query(
        `INSERT INTO recent_writes (owner_id, written_at) VALUES ($1, now())
         ON CONFLICT (owner_id) DO UPDATE SET written_at = now()`,
        [ownerId],
      )
      .then(() => undefined);
    this.marks.set(ownerId, { at: now, done });
    // A mark that failed is made again by the next write.
    done.catch(() => this.marks.get(ownerId)?.done === done && this.marks.delete(ownerId));
    if (this.marks.size > SWEEP_PAST) this.sweep(now);
    return done;
  }

  /** Whether `ownerId` wrote within the window, through this process or another. */
  async wroteLately(ownerId: string, now = Date.now()): Promise<boolean> {
    if (now - (this.wrote.get(ownerId) ?? -Infinity) < OWN_WRITE_WINDOW_MS) return true;
    const rows = await this.statements.query(
      `SELECT 1 FROM recent_writes WHERE owner_id = $1 AND written_at > now() - make_interval(secs => $2)`,
      [ownerId, SHARED_WINDOW_MS / 1000],
    );
    return rows.length > 0;
  }

  private sweep(now: number): void {
    for (const [owner, { at }] of this.marks) if (now - at >= SHARED_WINDOW_MS) this.marks.delete(owner);
    for (const [owner, at] of this.wrote) if (now - at >= OWN_WRITE_WINDOW_MS) this.wrote.delete(owner);
  }
}
