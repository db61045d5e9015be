/**
 * A write-ahead log position (`pg_lsn`, written `16/B374D848`) as a number that compares.
 * The text comes from PostgreSQL, which writes two hexadecimal halves of 32 bits each.
 */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** Samples older than this are forgotten: a replica further behind is simply "too far" (Infinity). */
const HISTORY_MS = 60_000;

/**
 * How far behind the primary a replica's replay is, in time, from positions alone.
 *
 * `pg_last_xact_replay_timestamp()` on the replica is the usual measure, but it is the commit time
 * of the last replayed transaction: on an idle primary it grows without anything being missing,
 * and it says nothing of WAL the replica never received. Here each probe records where the
 * primary's log stood and when; the replica is as stale as the newest sample it has replayed past
 * is old (at most one probe interval more than the truth, never less). A replica that has replayed
 * everything the primary had at the probe lags 0, however long ago its last transaction was.
 */
export class ReplayLag {
  private readonly samples: { at: number; lsn: bigint }[] = [];

  /** Where the primary's log stood at `at` (ms), newest last. */
  recordPrimary(lsn: bigint, at: number): void {
    this.samples.push({ at, lsn });
    while (this.samples.length > 1 && this.samples[0].at < at - HISTORY_MS) this.samples.shift();
  }

  /** The replica's lag (ms) at `now`, given the position it has replayed: Infinity past the history. */
  lagMs(replayed: bigint, now: number): number {
    const newest = this.samples.at(-1);
    if (newest === undefined) return Infinity;
    if (replayed >= newest.lsn) return 0;
    for (let i = this.samples.length - 2; i >= 0; i--) {
      if (this.samples[i].lsn <= replayed) return Math.max(0, now - this.samples[i].at);
    }
    return Infinity;
  }
}
