import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { EntityManager } from 'typeorm';
import {
  IdempotencyConflictError,
  IdempotencyMismatchError,
  InvalidInputError,
} from '../../platform/problem/problem.errors';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

// Namespaces our advisory locks (the two-integer form), apart from the migration lock's.
const LOCK_NAMESPACE = 0x69646b79;
// Visible ASCII and spaces: what any client can put in a header and read back unchanged.
const KEY = /^[\x20-\x7e]{1,255}$/;

/** The optional Idempotency-Key header, checked: 1–255 visible characters (docs/api.md#sending). */
export function idempotencyKeyOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (!KEY.test(header))
    throw new InvalidInputError([{ field: 'Idempotency-Key', message: 'must be 1–255 visible ASCII characters' }]);
  return header;
}

/**
 * Idempotency-Key for sends (docs/api.md#sending), held in the send's own transaction: the key's
 * transaction-scoped advisory lock makes a concurrent repeat a 409, in any process; the answer
 * is stored in the same commit as the message, so a repeat finds either both or neither.
 */
@Injectable()
export class IdempotencyKeys {
  constructor(private readonly keys: IdempotencyKeysRepository) {}

  /**
   * Takes the key for this transaction. Returns the first answer when the key was used with
   * the same request in the last 24 h; throws when it is in flight or was used with another.
   */
  async claim(manager: EntityManager, userId: string, key: string, request: unknown): Promise<unknown> {
    // A finished first request answers without the lock, so that repeats never queue behind each other.
    const finished = await this.earlierAnswer(manager, userId, key, request);
    if (finished !== undefined) return finished;
    const [{ locked }]: { locked: boolean }[] = await manager.query(
      `SELECT pg_try_advisory_xact_lock($1, hashtext($2)) AS locked`,
      [LOCK_NAMESPACE, `${userId}\n${key}`],
    );
    if (!locked)
      throw new IdempotencyConflictError(
        'A request with this Idempotency-Key is still being processed; retry when it has finished.',
      );
    // The first may have committed between the look-up and the lock.
    return this.earlierAnswer(manager, userId, key, request);
  }

  private async earlierAnswer(manager: EntityManager, userId: string, key: string, request: unknown): Promise<unknown> {
    const earlier = await this.keys.findLive(manager, userId, key);
    if (!earlier) return undefined;
    if (!earlier.requestHash.equals(fingerprint(request))) {
      throw new IdempotencyMismatchError(
        'This Idempotency-Key was used with a different body in the last 24 hours; use a new key.',
      );
    }
    return earlier.response;
  }

  /** Keeps the answer to a claimed key; an expired use of the same key is replaced. */
  async remember(
    manager: EntityManager,
    userId: string,
    key: string,
    request: unknown,
    response: unknown,
  ): Promise<void> {
    await this.keys.store(manager, userId, key, fingerprint(request), response);
  }
}

/** SHA-256 of the request as canonical JSON: key order and white space make no difference. */
export function fingerprint(request: unknown): Buffer {
  return createHash('sha256').update(JSON.stringify(request, sortedKeys)).digest();
}

function sortedKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
