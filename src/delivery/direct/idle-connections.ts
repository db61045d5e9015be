import type { MxConnection } from './mx-connection';
import type { Site, SiteLease } from './site-limits';

/** A connection kept open for the next message to its site, holding its site's lease. */
export interface HeldConnection {
  site: Site;
  connection: MxConnection;
  lease: SiteLease;
}

interface Idle extends HeldConnection {
  timer: NodeJS.Timeout;
}

interface Waiter {
  fits: (connection: MxConnection) => boolean;
  given?: HeldConnection;
  wake: () => void;
}

/** An idle connection is closed after this long: long enough for a batch's next message, short enough not to hog a site's slot. */
export const IDLE_CLOSE_MS = 3_000;

/**
 * Direct delivery's connections between two messages, per site (docs/delivery-and-deliverability.md#direct-delivery):
 * a message takes one that is open before asking for a new lease, and one waiting for a lease
 * takes the first connection put back (the site's leases may all be held by open connections);
 * one left idle for IDLE_CLOSE_MS is closed (QUIT) and its lease released.
 */
export class IdleConnections {
  private readonly idle = new Map<Site, Idle[]>();
  private readonly waiters = new Map<Site, Waiter[]>();

  constructor(private readonly idleCloseMs = IDLE_CLOSE_MS) {}

  /** An open connection to the site that `fits`, taken out of the idle set; undefined when none. */
  take(site: Site, fits: (connection: MxConnection) => boolean): HeldConnection | undefined {
    const list = this.idle.get(site) ?? [];
    const index = list.findIndex(({ connection }) => connection.usable && fits(connection));
    if (index < 0) return undefined;
    const [taken] = list.splice(index, 1);
    if (list.length === 0) this.idle.delete(site);
    clearTimeout(taken.timer);
    return { site: taken.site, connection: taken.connection, lease: taken.lease };
  }

  /**
   * Waits for a connection of the site that fits to be put back. `next` resolves when one is handed
   * over; `cancel` stops the wait and gives the connection handed over, if one was (the caller then
   * owns it, whatever else it waited for).
   */
  wait(
    site: Site,
    fits: (connection: MxConnection) => boolean,
  ): { next: Promise<void>; cancel(): HeldConnection | undefined } {
    let wake!: () => void;
    const next = new Promise<void>((resolve) => (wake = resolve));
    const waiter: Waiter = { fits, wake };
    this.waiters.set(site, [...(this.waiters.get(site) ?? []), waiter]);
    return {
      next,
      cancel: () => {
        setOrDelete(
          this.waiters,
          site,
          (this.waiters.get(site) ?? []).filter((other) => other !== waiter),
        );
        return waiter.given;
      },
    };
  }

  /** Keeps the connection for the next message to its site: one waiting for it first, else idle. */
  put(held: HeldConnection): void {
    const waiting = this.waiters.get(held.site) ?? [];
    const waiter = waiting.find((w) => !w.given && w.fits(held.connection));
    if (waiter && held.connection.usable) {
      waiter.given = held;
      setOrDelete(
        this.waiters,
        held.site,
        waiting.filter((other) => other !== waiter),
      );
      waiter.wake();
      return;
    }
    const idle: Idle = { ...held, timer: setTimeout(() => void this.expire(idle), this.idleCloseMs) };
    // Idle connections never keep the process alive: shutdown closes them (closeAll).
    idle.timer.unref();
    this.idle.set(held.site, [...(this.idle.get(held.site) ?? []), idle]);
  }

  /** How many sites it keeps anything for (idle connections or waiters): none once all are gone. */
  get sitesKept(): number {
    return new Set([...this.idle.keys(), ...this.waiters.keys()]).size;
  }

  /** Closes the site's idle connections and releases their leases (a site that asked for a pause). */
  async closeSite(site: Site): Promise<void> {
    const list = this.idle.get(site) ?? [];
    this.idle.delete(site);
    await Promise.all(list.map((idle) => closeHeld(idle, idle.timer)));
  }

  /** Closes every idle connection and releases their leases (shutdown). */
  async closeAll(): Promise<void> {
    const all = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.all(all.map((idle) => closeHeld(idle, idle.timer)));
  }

  private async expire(idle: Idle): Promise<void> {
    const list = this.idle.get(idle.site) ?? [];
    if (!list.includes(idle)) return;
    setOrDelete(
      this.idle,
      idle.site,
      list.filter((other) => other !== idle),
    );
    await closeHeld(idle, idle.timer);
  }
}

/** Keeps a site's list, or forgets the site once its list is empty: a site seen once must not stay in memory. */
function setOrDelete<T>(map: Map<Site, T[]>, site: Site, list: T[]): void {
  if (list.length > 0) map.set(site, list);
  else map.delete(site);
}

/** Closes the connection and, once it is closed, gives its lease back. */
export async function closeHeld(held: HeldConnection, timer?: NodeJS.Timeout): Promise<void> {
  if (timer) clearTimeout(timer);
  await held.connection.close();
  await held.lease.release();
}
