/** Where a client that used up its failures stands: refused for `retryAfterSeconds` more. */
export interface Refusal {
  limit: number;
  retryAfterSeconds: number;
}

interface Window {
  /** performance.now() at which the window ends and the failures are forgotten. */
  endsAt: number;
  failures: number;
}

/** Enough clients for any flood one process can take; past it, ended windows go, then the oldest. */
const MAX_TRACKED = 100_000;

/**
 * Failed attempts per client (its address), in fixed windows that start at the first failure:
 * once `limit` failures fall in one window, the client is refused until the window ends, without
 * the attempt costing anything (a database look-up of a key that does not exist, say). Shared by
 * the ways in that take API keys: HTTP bearer authentication and SMTP AUTH, 20 a minute each
 * (docs/api.md#smtp-submission). One process's count: across N processes a client gets at most N × limit.
 */
export class FailureBudget {
  private readonly windows = new Map<string, Window>();

  /** `budget` is read at each use, so that a test may shorten the window of a running server. */
  constructor(
    private readonly budget: { readonly limit: number; readonly windowMs: number },
    private readonly now: () => number = () => performance.now(),
  ) {}

  get limit(): number {
    return this.budget.limit;
  }

  /** Whether `client` is over its budget, and until when; undefined while it may try. */
  refusal(client: string): Refusal | undefined {
    const window = this.current(client);
    if (!window || window.failures < this.limit) return undefined;
    return { limit: this.limit, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - this.now()) / 1000)) };
  }

  /** Counts one failed attempt of `client`. */
  fail(client: string): void {
    const window = this.current(client);
    if (window) return void window.failures++;
    if (this.windows.size >= MAX_TRACKED) this.makeRoom();
    this.windows.set(client, { endsAt: this.now() + this.budget.windowMs, failures: 1 });
  }

  private current(client: string): Window | undefined {
    const window = this.windows.get(client);
    if (window && window.endsAt <= this.now()) {
      this.windows.delete(client);
      return undefined;
    }
    return window;
  }

  private makeRoom(): void {
    const now = this.now();
    for (const [client, window] of this.windows) if (window.endsAt <= now) this.windows.delete(client);
    // Windows are kept in the order they began: the first one ends soonest.
    if (this.windows.size >= MAX_TRACKED) this.windows.delete(this.windows.keys().next().value!);
  }
}
