import { performance } from 'node:perf_hooks';
import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { ApiKeyHasher } from './api-key-hasher';
import { ApiKeyHolder, ApiKeysRepository } from './api-keys.repository';

export type { ApiKeyHolder } from './api-keys.repository';

/** How often each process asks whether a key was deleted. */
const POLL_INTERVAL_MS = 250;
/**
 * Remembered keys are trusted only while the last completed poll began less than this long ago: a
 * deletion committed before that poll began has cleared them, so a deleted key stops working on
 * every process within this bound plus one poll's duration, under the one second docs/api.md#smtp-submission allows.
 * When polls fail (the database is away), every key is looked up again, and fails with it.
 */
const TRUST_MS = 800;
/** Enough for every key in active use on one process; past it the oldest remembered key is dropped. */
const MAX_REMEMBERED = 10_000;
/** last_used_at is written at most this often per key and process. */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * Verifies API keys without a database round trip for a key seen before (docs/api.md#smtp-submission): a key's
 * holder is remembered by its hash, and every remembered key is forgotten as soon as a poll of
 * the revocation generation (one single-row read, four times a second, only on processes that
 * have seen a key) shows that some key was deleted. Polling the shared pool was chosen over
 * LISTEN/NOTIFY: it needs no dedicated connection and no reconnection logic, and its staleness
 * bound holds by construction rather than by the connection staying up.
 */
@Injectable()
export class ApiKeys implements OnModuleDestroy {
  private readonly logger = new Logger(ApiKeys.name);
  /** Holders by base64 hash. */
  private readonly remembered = new Map<string, ApiKeyHolder>();
  private readonly touchedAt = new Map<string, number>();
  /** Look-ups in flight, by base64 hash. */
  private readonly lookingUp = new Map<string, Promise<ApiKeyHolder | undefined>>();
  /** Raised whenever `remembered` is cleared, so that a look-up begun before a clear is not remembered after it. */
  private epoch = 0;
  private generation: string | undefined;
  private trustedSince = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private failing = false;

  constructor(
    private readonly hasher: ApiKeyHasher,
    private readonly repository: ApiKeysRepository,
  ) {}

  /** The holder of a key, or undefined for a malformed, unknown or deleted one. */
  async authenticate(key: string): Promise<ApiKeyHolder | undefined> {
    const hash = this.hasher.hashOf(key);
    if (!hash) return undefined;
    this.startPolling();
    const id = hash.toString('base64');
    const holder = (this.trusted() ? this.remembered.get(id) : undefined) ?? (await this.lookUp(id, hash));
    if (!holder) return undefined;
    this.touch(holder.keyId);
    return holder;
  }

  /**
   * One database look-up per key at a time: the sessions an SMTP client opens at once with one key,
   * or a burst of API requests, share it rather than each taking a connection.
   */
  private lookUp(id: string, hash: Buffer): Promise<ApiKeyHolder | undefined> {
    const pending = this.lookingUp.get(id);
    if (pending) return pending;
    const epoch = this.epoch;
    const lookUp = this.repository
      .holderOf(hash)
      .then((holder) => {
        if (holder && epoch === this.epoch) this.remember(id, holder);
        return holder;
      })
      .finally(() => {
        // Not a newer look-up begun after forgetAll.
        if (this.lookingUp.get(id) === lookUp) this.lookingUp.delete(id);
      });
    this.lookingUp.set(id, lookUp);
    return lookUp;
  }

  /** Forgets every remembered key at once: this process's own deletions need not wait for a poll. */
  forgetAll(): void {
    this.remembered.clear();
    // A look-up begun before may have read a key since deleted: later callers look again.
    this.lookingUp.clear();
    this.epoch++;
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  private trusted(): boolean {
    return performance.now() - this.trustedSince < TRUST_MS;
  }

  private remember(id: string, holder: ApiKeyHolder): void {
    if (this.remembered.size >= MAX_REMEMBERED) this.remembered.delete(this.remembered.keys().next().value!);
    this.remembered.set(id, holder);
  }

  private startPolling(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.poll(), POLL_INTERVAL_MS).unref();
    void this.poll();
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    const startedAt = performance.now();
    try {
      const generation = await this.repository.revocationGeneration();
      // The first poll clears too: a key looked up before it may have been deleted since.
      if (generation !== this.generation) this.forgetAll();
      this.generation = generation;
      this.trustedSince = startedAt;
      this.failing = false;
    } catch (error) {
      // Once per outage, not four times a second.
      if (!this.failing)
        this.logger.warn(
          `Cannot check for deleted API keys; every key is looked up until this works again: ${(error as Error).message}`,
        );
      this.failing = true;
    } finally {
      this.polling = false;
    }
  }

  /** Records the use off the request's path; a failure costs only the record. */
  private touch(keyId: string): void {
    const now = performance.now();
    if (now - (this.touchedAt.get(keyId) ?? Number.NEGATIVE_INFINITY) < TOUCH_INTERVAL_MS) return;
    if (this.touchedAt.size >= MAX_REMEMBERED) this.touchedAt.clear();
    this.touchedAt.set(keyId, now);
    this.repository
      .touch(keyId)
      .catch((error: Error) => this.logger.warn(`Cannot record the use of API key ${keyId}: ${error.message}`));
  }
}
