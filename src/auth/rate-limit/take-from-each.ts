import type { RateLimitCountersRepository } from './rate-limit-counters.repository';

/** Where a refused try stands: the limit that refused it, and for how long more. */
export interface WindowRefusal {
  limit: number;
  retryAfterSeconds: number;
}

/**
 * Takes one try from each fixed window of `checks` (`[counter, limit]`, in the shared rate-limit
 * counters, so that every API process counts alike), all or none: a window with none left refuses
 * the try and the ones already taken are given back. Taken before the work they allow, so that a
 * burst sent at once cannot have every try checked before any is counted.
 */
export async function takeFromEach(
  counters: RateLimitCountersRepository,
  checks: [counter: string, limit: number][],
  windowMs: number,
): Promise<WindowRefusal | undefined> {
  const taken: string[] = [];
  for (const [counter, limit] of checks) {
    const window = await counters.charge(counter, 1, windowMs, limit);
    if (window?.spent) {
      taken.push(counter);
      continue;
    }
    await counters.refund(taken);
    return { limit, retryAfterSeconds: Math.max(1, Math.ceil((window?.msLeft ?? windowMs) / 1000)) };
  }
  return undefined;
}
