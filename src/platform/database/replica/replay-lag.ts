/**
 * A write-ahead log position (`pg_lsn`, written `16/B374D848`) as a number that compares.
 * The text comes from PostgreSQL, which writes two hexadecimal halves of 32 bits each.
 */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * How current a replica is, from log positions alone.
 *
 * `pg_last_xact_replay_timestamp()` on the replica is the usual measure, but it is the commit time
 * of the last replayed transaction: on an idle primary it grows without anything being missing,
 * and it says nothing of WAL the replica never received. Here each probe records where the
 * primary's log stood and when, before asking the replica; the replica holds everything the
 * primary had at the newest sample it has replayed past, so it is current as of that sample's
 * time. Its lag at any later moment is the time since: never under the truth, and growing by
 * itself between probes.
 */
export class ReplayLag {
  private readonly samples: { at: number; lsn: bigint }[] = [];

  /** @param historyMs how long samples are kept: a replica behind every one is further behind than this. */
  constructor(private readonly historyMs: number) {}

  /** Where the primary's log stood at `at` (ms), newest last. */
  recordPrimary(lsn: bigint, at: number): void {
    const newest = this.samples.at(-1);
    // The log has not moved (an idle primary): a replica at this position is current as of now.
    if (newest?.lsn === lsn) newest.at = at;
    else this.samples.push({ at, lsn });
    while (this.samples.length > 1 && this.samples[0].at < at - this.historyMs) this.samples.shift();
  }

  /**
   * The time (ms) as of which a replica that has replayed `replayed` holds all the primary had:
   * the newest sample at or below it; undefined when it is behind every sample kept.
   */
  currentAsOf(replayed: bigint): number | undefined {
    for (let i = this.samples.length - 1; i >= 0; i--) {
      if (this.samples[i].lsn <= replayed) return this.samples[i].at;
    }
    return undefined;
  }
}
