import { isRateLimitReply } from './rate-limit-reply';
import { connectionLimitOf, pauseSecondsFor, SiteShapingOptions } from './site-shaping';
import { Site, SiteLease, SiteLimits } from './site-limits';

interface Waiter {
  grant: (lease: SiteLease | undefined) => void;
  timer: NodeJS.Timeout;
}

/**
 * SiteLimits within one process, in memory: each site's connection limit (DELIVERY_SITE_CONNECTIONS)
 * and a queue of those waiting for a lease, first come first served. Of a site that says "too
 * fast" it only remembers the pause for `mayReuse` (its open connections stop); halving the site's
 * connections and pausing new ones, and limits across processes, are PostgresSiteLimits' work. For tests, and
 * as the parts of the direct transport are proven alone.
 */
export class LocalSiteLimits extends SiteLimits {
  private readonly open = new Map<Site, number>();
  private readonly waiting = new Map<Site, Waiter[]>();

  constructor(private readonly shaping: SiteShapingOptions) {
    super();
  }

  acquire(site: Site, deadline: number, signal?: AbortSignal): Promise<SiteLease | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    if ((this.open.get(site) ?? 0) < connectionLimitOf(site, this.shaping)) return Promise.resolve(this.leaseOf(site));
    const wait = deadline - performance.now();
    if (wait <= 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const giveUp = () => {
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', giveUp);
        this.waiting.set(
          site,
          (this.waiting.get(site) ?? []).filter((w) => w !== waiter),
        );
        resolve(undefined);
      };
      const waiter: Waiter = {
        grant: (lease) => {
          signal?.removeEventListener('abort', giveUp);
          resolve(lease);
        },
        timer: setTimeout(giveUp, wait),
      };
      signal?.addEventListener('abort', giveUp, { once: true });
      this.waiting.set(site, [...(this.waiting.get(site) ?? []), waiter]);
    });
  }

  /** No slowing down of new connections here: only the pause remembered, so that open ones are not reused through it. */
  deferred(site: Site, reply: string): Promise<void> {
    if (isRateLimitReply(reply)) this.pausedFor(site, pauseSecondsFor(reply, this.shaping) * 1_000);
    return Promise.resolve();
  }

  /** Never paused: it slows nothing down. */
  isPaused(_site: Site): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** Connections the site holds now. */
  openAt(site: Site): number {
    return this.open.get(site) ?? 0;
  }

  private leaseOf(site: Site): SiteLease {
    this.open.set(site, (this.open.get(site) ?? 0) + 1);
    let released = false;
    return {
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        const next = this.waiting.get(site)?.shift();
        if (next) {
          // The lease passes straight to the next in line: the count stays.
          clearTimeout(next.timer);
          this.open.set(site, this.open.get(site)! - 1);
          next.grant(this.leaseOf(site));
        } else this.open.set(site, this.open.get(site)! - 1);
        return Promise.resolve();
      },
    };
  }
}
