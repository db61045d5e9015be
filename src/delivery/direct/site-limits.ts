/**
 * A destination site (docs/delivery-and-deliverability.md#direct-delivery): the set of MX hosts a
 * domain uses, lower-cased, sorted and joined by commas, so that every domain one provider hosts
 * shares one site (`alt1.aspmx.l.google.com,aspmx.l.google.com`). A domain without MX records is
 * its own site (its A/AAAA host).
 */
export type Site = string;

/** One connection's hold on its site: given back when the connection closes. */
export interface SiteLease {
  release(): Promise<void>;
}

/**
 * How many connections each site may have at once across every worker process, and how a site
 * that answered "too fast" is slowed. Direct delivery opens a connection only while holding a
 * lease; it reuses the connection for up to the configured messages per connection.
 */
export abstract class SiteLimits {
  /**
   * The sites this process heard "too fast" from, each with the end of its pause
   * (performance.now()): what `mayReuse` answers from, without asking the store.
   */
  private readonly pausedHere = new Map<Site, number>();

  /**
   * Resolves with a lease once the site may have one more connection, or with undefined when
   * `deadline` (performance.now()) comes first: the caller then defers, never waits past its job's
   * lease. Also undefined once `signal` aborts: the caller got a connection another way (one put
   * back), and a waiter it no longer needs must stop asking.
   */
  abstract acquire(site: Site, deadline: number, signal?: AbortSignal): Promise<SiteLease | undefined>;

  /**
   * A 4xx reply from the site, to a connection, a command or a transaction. When it says the sender
   * is too fast (a 421, or the rate-limit wordings of Gmail, Microsoft, Yahoo and Postfix), the
   * site's concurrency halves (1 at least) and its next connection waits: as long as the reply
   * named (platform/smtp/retry-hint.ts), else a default pause. Other replies change nothing.
   */
  abstract deferred(site: Site, reply: string): Promise<void>;

  /**
   * Whether an open connection of the site may carry another message now, as far as this process
   * knows: not while a pause the site asked for ("too fast", reported to `deferred` here) runs.
   * Cheap (no store asked), for the moment a connection is put back or the site's idle ones are
   * looked at; `isPaused` asks the store, for pauses other processes heard, before a connection
   * is reused.
   */
  mayReuse(site: Site): boolean {
    const until = this.pausedHere.get(site);
    if (until === undefined) return true;
    if (until > performance.now()) return false;
    this.pausedHere.delete(site);
    return true;
  }

  /** Remembers that the site is paused for `ms` from now (for `mayReuse`); forgets the pauses that ended. */
  protected pausedFor(site: Site, ms: number): void {
    const now = performance.now();
    for (const [other, until] of this.pausedHere) if (until <= now) this.pausedHere.delete(other);
    this.pausedHere.set(site, Math.max(this.pausedHere.get(site) ?? 0, now + ms));
  }

  /**
   * Whether the site is paused now (a "too fast" reply's pause, whichever process heard it): a
   * connection kept open must not carry another message to it before the pause ends.
   */
  abstract isPaused(site: Site): Promise<boolean>;
}
