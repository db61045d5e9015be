import { Clock } from '../../platform/clock';
import type { SmtpRelay } from '../../platform/config/smtp-relays';

/** How long a relay that failed is put after the others (docs/delivery-and-deliverability.md#relays-and-failover). */
export const RELAY_SKIP_MS = 60_000;

/**
 * Which relays failed lately, in this process: a relay that failed is skipped for `skipMs`, that
 * is tried only after every relay that did not, so that each message does not wait on a dead one
 * first. When all have failed lately they are still tried, in order: an attempt never ends
 * without a try.
 */
export class RelaySkips {
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly skipMs = RELAY_SKIP_MS,
  ) {}

  /** The relays in the order to try them now: those not skipped first, each group in configured order. */
  order<R extends Pick<SmtpRelay, 'name'>>(relays: readonly R[]): R[] {
    const now = this.clock.now().getTime();
    const skipped = (relay: R) => {
      const at = this.failedAt.get(relay.name);
      return at !== undefined && now - at < this.skipMs;
    };
    return [...relays.filter((r) => !skipped(r)), ...relays.filter(skipped)];
  }

  failed(relay: Pick<SmtpRelay, 'name'>): void {
    this.failedAt.set(relay.name, this.clock.now().getTime());
  }

  /** A relay that answered (accepted, or refused for good) is healthy again. */
  answered(relay: Pick<SmtpRelay, 'name'>): void {
    this.failedAt.delete(relay.name);
  }
}
