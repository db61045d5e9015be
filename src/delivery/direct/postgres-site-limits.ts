import { Logger, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Metrics } from '../../platform/metrics/metrics';
import { isRateLimitReply } from './rate-limit-reply';
import { Site, SiteLease, SiteLimits } from './site-limits';
import { SiteLimitsRepository } from './site-limits.repository';
import { allowanceAt, connectionLimitOf, pauseSecondsFor, SiteShapingOptions, slowedDown } from './site-shaping';

/** How a waiter asks a full site again: soon, then less often (other processes' releases are seen only by asking). */
export interface RetryPacing {
  firstMs: number;
  maxMs: number;
}

const DEFAULT_RETRY: RetryPacing = { firstMs: 20, maxMs: 1_000 };

type Attempt = { granted: string } | { pausedForMs: number } | { full: true };

/**
 * SiteLimits kept in PostgreSQL, so that they hold across every worker process
 * (docs/delivery-and-deliverability.md#direct-delivery): a lease is a row that lives while its
 * holder renews it, a site's pace a row locked for each grant. A waiter asks again with backoff,
 * and at once when a lease of its site is released in this process: no LISTEN, which needs one
 * server connection for its whole wait (a pooler in transaction mode gives none).
 */
export class PostgresSiteLimits extends SiteLimits implements OnModuleDestroy {
  private readonly logger = new Logger(PostgresSiteLimits.name);
  /** The leases this process holds, each with its renewal timer and the renewal under way (settled when none). */
  private readonly held = new Map<string, { timer: NodeJS.Timeout; renewing: Promise<unknown> }>();
  /** Who waits for a site in this process: woken when a lease of it is released here. */
  private readonly waiters = new Map<Site, Set<() => void>>();

  constructor(
    private readonly repository: SiteLimitsRepository,
    private readonly metrics: Metrics,
    private readonly options: SiteShapingOptions,
    /** Written on each lease, for whoever reads the table: which process holds it. */
    private readonly holder = `${hostname()}:${process.pid}`,
    /** A test gives a slow one, to see a waiter woken by a release rather than by its own timer. */
    private readonly retry: RetryPacing = DEFAULT_RETRY,
  ) {
    super();
  }

  /**
   * Resolves with undefined before `deadline` when the site is paused past it: the caller defers
   * all the same, and sooner, instead of holding its job for a grant that cannot come.
   */
  async acquire(site: Site, deadline: number, signal?: AbortSignal): Promise<SiteLease | undefined> {
    const limit = connectionLimitOf(site, this.options);
    let backoffMs = this.retry.firstMs;
    for (;;) {
      if (signal?.aborted) return undefined;
      const attempt = await this.attempt(site, limit);
      if ('granted' in attempt) {
        const lease = this.hold(site, attempt.granted);
        // Granted as the caller stopped waiting: nobody will use it.
        if (!signal?.aborted) return lease;
        await lease.release();
        return undefined;
      }
      const leftMs = deadline - performance.now();
      if (leftMs <= 0) return undefined;
      if ('pausedForMs' in attempt) {
        if (attempt.pausedForMs >= leftMs) return undefined;
        await this.waitForRelease(site, attempt.pausedForMs, signal);
      } else {
        // Jittered, so that the waiters of several processes do not ask in step.
        await this.waitForRelease(site, Math.min(leftMs, backoffMs * (0.5 + Math.random() / 2)), signal);
        backoffMs = Math.min(backoffMs * 2, this.retry.maxMs);
      }
    }
  }

  async deferred(site: Site, reply: string): Promise<void> {
    if (!isRateLimitReply(reply)) return;
    this.metrics.directRateLimitDeferrals.inc({ site: this.metrics.directSite(site) });
    const { quietSeconds } = this.options;
    const pauseSeconds = pauseSecondsFor(reply, this.options);
    // Known here at once, even should the store fail: this process's open connections stop now.
    this.pausedFor(site, pauseSeconds * 1_000);
    await this.repository.transaction(async (manager) => {
      const pace = await this.repository.lock(manager, site, connectionLimitOf(site, this.options));
      await this.repository.savePace(manager, site, slowedDown(pace, pace.now, pauseSeconds, quietSeconds));
    });
  }

  async isPaused(site: Site): Promise<boolean> {
    return this.repository.isPaused(site);
  }

  /** Gives back what this process still holds, so that the other processes need not wait for the leases to expire. */
  async onModuleDestroy(): Promise<void> {
    const held = [...this.held.entries()];
    this.held.clear();
    for (const [, { timer }] of held) clearInterval(timer);
    await Promise.all(held.map(([, { renewing }]) => renewing));
    if (held.length > 0) await this.repository.release(held.map(([id]) => id)).catch(() => undefined);
  }

  /** One short transaction: lock the site's row, then grant if it is not paused and under its allowance. */
  private attempt(site: Site, limit: number): Promise<Attempt> {
    const id = randomUUID();
    return this.repository.transaction(async (manager): Promise<Attempt> => {
      const pace = await this.repository.lock(manager, site, limit);
      if (pace.pausedUntil !== null && pace.pausedUntil > pace.now)
        return { pausedForMs: pace.pausedUntil.getTime() - pace.now.getTime() };
      const allowance = allowanceAt(pace, pace.now, this.options.quietSeconds);
      const lease = { id, site, holder: this.holder, seconds: this.options.leaseSeconds };
      return (await this.repository.grant(manager, lease, allowance)) ? { granted: id } : { full: true };
    });
  }

  /** Renews the granted lease a few times within its life until released; the timer keeps no process alive. */
  private hold(site: Site, id: string): SiteLease {
    const { leaseSeconds } = this.options;
    const lease = { id, site, holder: this.holder, seconds: leaseSeconds };
    const { repository, logger } = this;
    const holding = {
      renewing: Promise.resolve() as Promise<unknown>,
      timer: setInterval(renew, (leaseSeconds * 1_000) / 3),
    };
    function renew(this: void): void {
      holding.renewing = repository.renew(lease).then(
        (restored) => restored && logger.warn(`Lease ${id} on ${site} had expired while held: written again`),
        (error: Error) => logger.warn(`Could not renew lease ${id} on ${site}: ${error.message}`),
      );
    }
    holding.timer.unref();
    this.held.set(id, holding);
    return {
      release: async () => {
        if (this.held.get(id) !== holding) return;
        this.held.delete(id);
        clearInterval(holding.timer);
        // A renewal on its way would write the lease again after the delete: it lands first.
        await holding.renewing;
        // Not fatal: a lease left behind expires within leaseSeconds.
        await this.repository
          .release([id])
          .catch((error: Error) => this.logger.warn(`Could not release lease ${id} on ${site}: ${error.message}`));
        for (const wake of this.waiters.get(site) ?? []) wake();
      },
    };
  }

  /** Waits `ms`, or less when a lease of the site is released in this process or the signal aborts. */
  private waitForRelease(site: Site, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(site) ?? new Set();
      this.waiters.set(site, waiting);
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        waiting.delete(wake);
        if (waiting.size === 0 && this.waiters.get(site) === waiting) this.waiters.delete(site);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      signal?.addEventListener('abort', wake, { once: true });
      waiting.add(wake);
    });
  }
}
