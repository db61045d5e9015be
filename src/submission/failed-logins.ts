/** A client address's failed logins in its current window. */
interface Window {
  failures: number;
  endsAt: number;
}

/**
 * Failed AUTH attempts by client address, in fixed windows that start at an address's first
 * failure (SPEC §10: 20 in a minute, and the address is refused at connect until that minute
 * ends). Windows are kept in the order they started, so those that ended are dropped from the
 * front as new ones come, and an attacker rotating addresses costs one entry per live window.
 */
export class FailedLogins {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly limit: () => number,
    private readonly windowMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  record(address: string): void {
    const now = this.now();
    this.forgetEnded(now);
    const window = this.windows.get(address);
    if (window && window.endsAt > now) window.failures++;
    else {
      // Deleted first, so that the new window goes to the back, in the order of starts.
      this.windows.delete(address);
      this.windows.set(address, { failures: 1, endsAt: now + this.windowMs() });
    }
  }

  /** Whether the address has used up its failures in a window not ended yet. */
  refuses(address: string): boolean {
    const window = this.windows.get(address);
    return !!window && window.endsAt > this.now() && window.failures >= this.limit();
  }

  private forgetEnded(now: number): void {
    for (const [address, window] of this.windows) {
      if (window.endsAt > now) return;
      this.windows.delete(address);
    }
  }
}
