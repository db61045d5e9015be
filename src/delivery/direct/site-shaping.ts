import { retryHintSeconds } from '../../platform/smtp/retry-hint';
import type { Site } from './site-limits';

/** How sites are shaped (docs/delivery-and-deliverability.md#direct-delivery). */
export interface SiteShapingOptions {
  /** Simultaneous connections a site may have, unless one of its MX hosts is named below. */
  defaultConnections: number;
  /** Host name suffix → its sites' limit (`google.com` → 3); a site takes the lowest its hosts match. */
  byHostSuffix: Record<string, number>;
  /** How long a slowed site waits before its next connection when the reply named no delay. */
  pauseSeconds: number;
  /** Time without a slow-down after which a slowed site gets one more connection back (and again each such period). */
  quietSeconds: number;
  /** How long a lease outlives its holder: a crashed worker's connections count for at most this long. */
  leaseSeconds: number;
}

/** The defaults of docs/delivery-and-deliverability.md#direct-delivery: 5 a site, 3 for the big three. */
export const DEFAULT_SITE_SHAPING: SiteShapingOptions = {
  defaultConnections: 5,
  byHostSuffix: { 'google.com': 3, 'outlook.com': 3, 'yahoodns.net': 3 },
  pauseSeconds: 60,
  quietSeconds: 300,
  leaseSeconds: 60,
};

function endsIn(host: string, suffix: string): boolean {
  const name = host.replace(/\.$/, '');
  return name === suffix || name.endsWith(`.${suffix}`);
}

/**
 * The site's limit of simultaneous connections: the lowest limit among the suffixes its MX hosts
 * end in (on a label boundary: `notgoogle.com` is not `google.com`), else the default. The lowest,
 * because a site that mixes providers reaches the strictest of them.
 */
export function connectionLimitOf(site: Site, options: SiteShapingOptions): number {
  const hosts = site.toLowerCase().split(',');
  const matched = Object.entries(options.byHostSuffix)
    .filter(([suffix]) => hosts.some((host) => endsIn(host, suffix.toLowerCase())))
    .map(([, limit]) => limit);
  return matched.length > 0 ? Math.min(...matched) : options.defaultConnections;
}

/** What the database keeps of a site's pace. */
export interface SitePace {
  /** Its configured limit of simultaneous connections. */
  connectionLimit: number;
  /** The allowance its last slow-down left (the limit until it is first slowed). */
  concurrency: number;
  /** Before this, no new connection to it; null when never slowed. */
  pausedUntil: Date | null;
  lastSlowedAt: Date | null;
}

/**
 * The connections the site may have now: the allowance its last slow-down left, plus one per full
 * quiet period since (additive increase after the multiplicative decrease: a site that keeps quiet
 * gets its pace back gradually, and one more "too fast" halves it again), up to its limit.
 */
export function allowanceAt(pace: SitePace, now: Date, quietSeconds: number): number {
  if (pace.lastSlowedAt === null) return pace.connectionLimit;
  const quietPeriods = Math.floor((now.getTime() - pace.lastSlowedAt.getTime()) / (quietSeconds * 1_000));
  return Math.max(1, Math.min(pace.connectionLimit, pace.concurrency + Math.max(0, quietPeriods)));
}

/**
 * How long a slowed site pauses: the delay the reply named ("try again in 5 minutes",
 * platform/smtp/retry-hint.ts), at most the longer of the pause and the quiet period (a server's
 * hint must not stop a site for days), else the configured pause.
 */
export function pauseSecondsFor(reply: string, options: SiteShapingOptions): number {
  const hint = retryHintSeconds(reply);
  if (hint === undefined) return options.pauseSeconds;
  return Math.min(hint, Math.max(options.pauseSeconds, options.quietSeconds));
}

/**
 * The site's pace after a "too fast" reply at `now`: half the connections it may have now (one
 * at least), paused for `pauseSeconds`, its quiet period counted from now. A reply that comes
 * while an earlier slow-down's pause still holds is the same episode (connections opened before
 * it, answered together): it restarts the quiet period and may lengthen the pause, but does not
 * halve again, else one burst of 421s would take a site of 5 to 1 at once.
 */
export function slowedDown(pace: SitePace, now: Date, pauseSeconds: number, quietSeconds: number): SitePace {
  const allowance = allowanceAt(pace, now, quietSeconds);
  const pausedUntil = new Date(now.getTime() + pauseSeconds * 1_000);
  const sameEpisode = pace.pausedUntil !== null && pace.pausedUntil > now;
  return {
    ...pace,
    concurrency: sameEpisode ? allowance : Math.max(1, Math.floor(allowance / 2)),
    pausedUntil: sameEpisode && pace.pausedUntil! > pausedUntil ? pace.pausedUntil : pausedUntil,
    lastSlowedAt: now,
  };
}
