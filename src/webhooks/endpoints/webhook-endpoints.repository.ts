import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../platform/database/database';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';
import { ROTATION_OVERLAP_MS } from './endpoint-secrets';
import { EndpointSecretCipher } from './endpoint-secret-cipher';

// Advisory lock space of the per-user endpoint count (the other half of the key is the user's hash).
const ENDPOINT_COUNT_LOCK = 0x77686570;

export type NewWebhookEndpoint = Pick<WebhookEndpointEntity, 'id' | 'userId' | 'url' | 'events' | 'description'> & {
  /** In plain text: the repository seals it. */
  secret: string;
};
export type EndpointPatch = Partial<Pick<WebhookEndpointEntity, 'url' | 'events' | 'description' | 'enabled'>>;

/** What an attempt needs of its endpoint, its secrets opened. */
export type EndpointForAttempt = Pick<WebhookEndpointEntity, 'id' | 'url' | 'enabled' | 'previousSecretUntil'> & {
  secret: string;
  previousSecret: string | null;
};

/** A user's webhook endpoints (docs/delivery-and-deliverability.md#webhooks); every method for the API takes the owner. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    private readonly database: Database,
    private readonly cipher: EndpointSecretCipher,
  ) {}

  private get endpoints() {
    return this.database.repository(WebhookEndpointEntity);
  }

  list(userId: string): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(userId: string, id: string): Promise<WebhookEndpointEntity | undefined> {
    return (await this.endpoints.findOneBy({ userId, id })) ?? undefined;
  }

  /**
   * Adds the endpoint unless the user has `limit`; counted under a per-user lock, so concurrent adds cannot pass it.
   * `also` runs in the same transaction once it is added (its audit entry).
   */
  add(
    endpoint: NewWebhookEndpoint,
    limit: number,
    also?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<WebhookEndpointEntity | 'limit reached'> {
    return this.database.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ENDPOINT_COUNT_LOCK, endpoint.userId]);
      const repository = manager.getRepository(WebhookEndpointEntity);
      if ((await repository.countBy({ userId: endpoint.userId })) >= limit) return 'limit reached';
      await manager.query(
        `INSERT INTO webhook_endpoints (id, user_id, url, events, description, secret, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, date_trunc('milliseconds', clock_timestamp()))`,
        [
          endpoint.id,
          endpoint.userId,
          endpoint.url,
          endpoint.events,
          endpoint.description,
          this.cipher.sealSecret(endpoint.secret, endpoint.id),
        ],
      );
      await also?.(manager);
      return repository.findOneByOrFail({ id: endpoint.id });
    });
  }

  /**
   * Applies the patch; enabling clears the reason it was disabled and its failing streak. `also` runs in
   * the same transaction when the endpoint is there (its audit entry). Undefined: no such endpoint.
   */
  update(
    userId: string,
    id: string,
    patch: EndpointPatch,
    also?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<WebhookEndpointEntity | undefined> {
    return this.database.transaction(async (manager) => {
      const repository = manager.getRepository(WebhookEndpointEntity);
      const changes: Partial<WebhookEndpointEntity> = { ...patch };
      if (patch.enabled === true)
        Object.assign(changes, { disabledReason: null, failingSince: null, failedAttempts: 0 });
      if (Object.keys(changes).length > 0) await repository.update({ userId, id }, changes);
      const endpoint = (await repository.findOneBy({ userId, id })) ?? undefined;
      if (endpoint) await also?.(manager);
      return endpoint;
    });
  }

  /** The endpoint's signing secret, opened; undefined when the user has no such endpoint. */
  async revealSecret(userId: string, id: string): Promise<string | undefined> {
    const endpoint = await this.endpoints.findOne({ select: { id: true, secret: true }, where: { userId, id } });
    return endpoint ? this.cipher.openSecret(endpoint.secret, id) : undefined;
  }

  /**
   * Makes `fresh.secret` sign from now on, the current one beside it until `fresh.until` (
   * docs/delivery-and-deliverability.md#webhooks), and returns it; or, when the endpoint was rotated at `since` or later, changes nothing
   * and returns the secret that rotation made. Serial per endpoint (the row is locked), so that
   * concurrent rotations make one new secret: each would otherwise push the secret before it out
   * of signing at once, the one the receiver holds among them. `also` runs in the same transaction when
   * a new secret was made (its audit entry). Undefined: no such endpoint.
   */
  rotate(
    userId: string,
    id: string,
    fresh: { secret: string; until: Date },
    since: Date,
    also?: (manager: EntityManager) => Promise<unknown>,
  ): Promise<string | undefined> {
    return this.database.transaction(async (manager) => {
      const repository = manager.getRepository(WebhookEndpointEntity);
      const current = await repository.findOne({
        select: { id: true, secret: true, previousSecretUntil: true },
        where: { userId, id },
        lock: { mode: 'pessimistic_write' },
      });
      if (!current) return undefined;
      const rotatedAt = current.previousSecretUntil && current.previousSecretUntil.getTime() - ROTATION_OVERLAP_MS;
      if (rotatedAt !== null && rotatedAt >= since.getTime()) return this.cipher.openSecret(current.secret, id);
      await repository.update(
        { id },
        {
          previousSecret: () => 'secret',
          previousSecretUntil: fresh.until,
          secret: this.cipher.sealSecret(fresh.secret, id),
        },
      );
      await also?.(manager);
      return fresh.secret;
    });
  }

  /**
   * Whether there was an endpoint to remove (`also`: its audit entry, in the same transaction). The delete waits for attempts that are starting
   * (lockForAttempt holds the row), so none starts once it returns; its deliveries go with it.
   */
  remove(userId: string, id: string, also?: (manager: EntityManager) => Promise<unknown>): Promise<boolean> {
    return this.database.transaction(async (manager) => {
      const { affected } = await manager.getRepository(WebhookEndpointEntity).delete({ userId, id });
      if (!affected) return false;
      await also?.(manager);
      return true;
    });
  }

  /**
   * The endpoint of a delivery, share-locked until the caller's transaction ends: an attempt
   * starts inside it, so a delete or a disable waits for it, and none starts after them.
   */
  async lockForAttempt(manager: EntityManager, id: string): Promise<EndpointForAttempt | undefined> {
    const [row]: (Omit<EndpointForAttempt, 'secret' | 'previousSecret'> & {
      secret: Buffer;
      previousSecret: Buffer | null;
    })[] = await manager.query(
      `SELECT id, url, enabled, secret, previous_secret AS "previousSecret", previous_secret_until AS "previousSecretUntil"
       FROM webhook_endpoints WHERE id = $1 FOR SHARE`,
      [id],
    );
    return (
      row && {
        ...row,
        secret: this.cipher.openSecret(row.secret, id),
        previousSecret: row.previousSecret && this.cipher.openSecret(row.previousSecret, id),
      }
    );
  }

  /**
   * A successful attempt ends the endpoint's failing streak. Without one it writes nothing: a
   * busy endpoint's attempts would otherwise each write a new version of its one row, and queue
   * on it (docs/performance.md, "Where an event's CPU goes"). A success that finds no streak while
   * a first failure's is still uncommitted counts as before that failure: the failure's streak
   * stands, and the next success ends it.
   */
  async recordSuccess(manager: EntityManager, id: string): Promise<void> {
    await manager.query(
      `UPDATE webhook_endpoints SET failing_since = NULL, failed_attempts = 0
       WHERE id = $1 AND (failing_since IS NOT NULL OR failed_attempts > 0)`,
      [id],
    );
  }

  /**
   * A failed attempt extends the failing streak, and disables the endpoint (`failing`) once it
   * has lasted `disableAfterSeconds` over at least 5 failed attempts
   * (docs/delivery-and-deliverability.md#webhooks). Returns whether the endpoint is still enabled
   * (false once it is gone).
   */
  async recordFailure(manager: EntityManager, id: string, at: Date, disableAfterSeconds: number): Promise<boolean> {
    // The streak is read from the row being updated, not from the statement's snapshot: a failure
    // that waited for a concurrent success must see the streak that success ended.
    const disable = `e.failed_attempts + 1 >= 5
      AND $2::timestamptz - coalesce(e.failing_since, $2::timestamptz) >= make_interval(secs => $3)`;
    // An UPDATE's answer through TypeORM: [rows, count].
    const [rows]: [{ enabled: boolean }[], number] = await manager.query(
      `UPDATE webhook_endpoints e SET
         failing_since = coalesce(e.failing_since, $2),
         failed_attempts = e.failed_attempts + 1,
         enabled = e.enabled AND NOT (${disable}),
         disabled_reason = CASE WHEN e.enabled AND ${disable} THEN 'failing' ELSE e.disabled_reason END
       WHERE e.id = $1 RETURNING e.enabled`,
      [id, at, disableAfterSeconds],
    );
    return rows[0]?.enabled ?? false;
  }
}
