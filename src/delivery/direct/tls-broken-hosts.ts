import type { Clock } from '../../platform/clock';

/** A host whose TLS handshake failed is spoken to in clear for this long, then tried with TLS again. */
export const TLS_BROKEN_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * MX hosts whose STARTTLS handshake failed, within this process (docs/delivery-and-deliverability.md#direct-delivery):
 * without an MTA-STS policy, their mail goes in clear for a day rather than waiting on a broken
 * TLS set-up at every message.
 */
export class TlsBrokenHosts {
  private readonly until = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  failed(host: string): void {
    const now = this.clock.now().getTime();
    // Swept here, a rare event: a host not asked about again after its day would otherwise stay for the process's life.
    for (const [other, until] of this.until) if (until <= now) this.until.delete(other);
    this.until.set(host.toLowerCase(), now + TLS_BROKEN_FOR_MS);
  }

  /** How many hosts it remembers. */
  get size(): number {
    return this.until.size;
  }

  isBroken(host: string): boolean {
    const until = this.until.get(host.toLowerCase());
    if (until === undefined) return false;
    if (until > this.clock.now().getTime()) return true;
    this.until.delete(host.toLowerCase());
    return false;
  }
}
