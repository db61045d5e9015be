import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Database } from '../../database/database';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';

// Advisory lock space of the per-user endpoint count (the other half of the key is the user's hash).
const ENDPOINT_COUNT_LOCK = 0x77686570;

export type NewWebhookEndpoint = Pick<
  WebhookEndpointEntity,
  'id' | 'userId' | 'url' | 'events' | 'description' | 'secret'
>;
export type EndpointPatch = Partial<Pick<WebhookEndpointEntity, 'url' | 'events' | 'description' | 'enabled'>>;

/** What an attempt needs of its endpoint. */
export type EndpointForAttempt = Pick<
  WebhookEndpointEntity,
  'id' | 'url' | 'enabled' | 'secret' | 'previousSecret' | 'previousSecretUntil'
>;

/** A user's webhook endpoints (SPEC §11); every method for the API takes the owner. */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(private readonly database: Database) {}

  private get endpoints() {
    return this.database.repository(WebhookEndpointEntity);
  }

  list(userId: string): Promise<WebhookEndpointEntity[]> {
    return this.endpoints.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async get(userId: string, id: string): Promise<WebhookEndpointEntity | undefined> {
    return (await this.endpoints.findOneBy({ userId, id })) ?? undefined;
  }

  /** Adds the endpoint unless the user has `limit`; counted under a per-user lock, so concurrent adds cannot pass it. */
  add(endpoint: NewWebhookEndpoint, limit: number): Promise<WebhookEndpointEntity | 'limit reached'> {
    return this.database.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [ENDPOINT_COUNT_LOCK, endpoint.userId]);
      const repository = manager.getRepository(WebhookEndpointEntity);
      if ((await repository.countBy({ userId: endpoint.userId })) >= limit) return 'limit reached';
      await manager.query(
        `INSERT INTO webhook_endpoints (id, user_id, url, events, description, secret, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, date_trunc('milliseconds', clock_timestamp()))`,
        [endpoint.id, endpoint.userId, endpoint.url, endpoint.events, endpoint.description, endpoint.secret],
      );
      return repository.findOneByOrFail({ id: endpoint.id });
    });
  }

  /** Applies the patch; enabling clears the reason it was disabled and its failing streak. Undefined: no such endpoint. */
  async update(userId: string, id: string, patch: EndpointPatch): Promise<WebhookEndpointEntity | undefined> {
    const changes: Partial<WebhookEndpointEntity> = { ...patch };
    if (patch.enabled === true) Object.assign(changes, { disabledReason: null, failingSince: null, failedAttempts: 0 });
    if (Object.keys(changes).length > 0) await this.endpoints.update({ userId, id }, changes);
    return this.get(userId, id);
  }

  /** The new secret signs from now on; the old one also signs until `until` (SPEC §11). */
  async rotate(userId: string, id: string, secret: string, until: Date): Promise<boolean> {
    const { affected } = await this.endpoints.update(
      { userId, id },
      { previousSecret: () => 'secret', previousSecretUntil: until, secret },
    );
    return (affected ?? 0) > 0;
  }

  /**
   * Whether there was an endpoint to remove. The delete waits for attempts that are starting
   * (lockForAttempt holds the row), so none starts once it returns; its deliveries go with it.
   */
  async remove(userId: string, id: string): Promise<boolean> {
    const { affected } = await this.endpoints.delete({ userId, id });
    return (affected ?? 0) > 0;
  }

  /**
   * The endpoint of a delivery, share-locked until the caller's transaction ends: an attempt
   * starts inside it, so a delete or a disable waits for it, and none starts after them.
   */
  async lockForAttempt(manager: EntityManager, id: string): Promise<EndpointForAttempt | undefined> {
    const [row]: EndpointForAttempt[] = await manager.query(
      `SELECT id, url, enabled, secret, previous_secret AS "previousSecret", previous_secret_until AS "previousSecretUntil"
       FROM webhook_endpoints WHERE id = $1 FOR SHARE`,
      [id],
    );
    return row;
  }

  /**
   * Records an attempt's outcome: a success ends the failing streak; a failure extends it, and
   * disables the endpoint (`failing`) once it has lasted `disableAfterSeconds` over at least 5
   * failed attempts (SPEC §11). Returns whether the endpoint is still enabled.
   */
  async recordOutcome(
    manager: EntityManager,
    id: string,
    succeeded: boolean,
    at: Date,
    disableAfterSeconds: number,
  ): Promise<boolean> {
    // An UPDATE's answer through TypeORM: [rows, count].
    const [rows]: [{ enabled: boolean }[], number] = await manager.query(
      `UPDATE webhook_endpoints e SET
         failing_since = CASE WHEN $2 THEN NULL ELSE coalesce(e.failing_since, $3) END,
         failed_attempts = CASE WHEN $2 THEN 0 ELSE e.failed_attempts + 1 END,
         enabled = e.enabled AND NOT f.disable,
         disabled_reason = CASE WHEN e.enabled AND f.disable THEN 'failing' ELSE e.disabled_reason END
       FROM (SELECT NOT $2 AND failed_attempts + 1 >= 5
               AND $3::timestamptz - coalesce(failing_since, $3::timestamptz) >= make_interval(secs => $4) AS disable
             FROM webhook_endpoints WHERE id = $1) f
       WHERE e.id = $1 RETURNING e.enabled`,
      [id, succeeded, at, disableAfterSeconds],
    );
    return rows[0]?.enabled ?? false;
  }
}
