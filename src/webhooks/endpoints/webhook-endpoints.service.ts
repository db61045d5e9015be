import { Injectable } from '@nestjs/common';
import { AuditLog } from '../../auth';
import type { AuthUser } from '../../auth';
import { Clock } from '../../platform/clock';
import { NotFoundError, StateConflictError } from '../../platform/problem/problem.errors';
import { isUuid } from '../../platform/uuid';
import { Database } from '../../platform/database/database';
import { EventOutbox } from '../events/event-outbox';
import { TEST_EVENT_TYPE } from '../events/event-types';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity';
import {
  CreatedWebhookEndpointResponse,
  CreateWebhookEndpointDto,
  EndpointSecretResponse,
  EndpointTestResponse,
  UpdateWebhookEndpointDto,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
} from './dto/webhook-endpoint.dto';
import { newEndpointSecret, ROTATION_COALESCE_MS, ROTATION_OVERLAP_MS } from './endpoint-secrets';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { randomUUID } from 'node:crypto';

/** As Resend and Svix cap them: enough for every consumer of an account, not a fan-out tool. */
export const MAX_ENDPOINTS_PER_USER = 20;

/** /user/webhook-endpoints (docs/delivery-and-deliverability.md#webhooks). */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly endpoints: WebhookEndpointsRepository,
    private readonly outbox: EventOutbox,
    private readonly audit: AuditLog,
  ) {}

  async create(user: AuthUser, body: CreateWebhookEndpointDto): Promise<CreatedWebhookEndpointResponse> {
    const secret = newEndpointSecret();
    const id = randomUUID();
    const result = await this.endpoints.add(
      {
        id,
        userId: user.id,
        url: body.url,
        events: [...new Set(body.events ?? [])],
        description: body.description ?? null,
        secret,
      },
      MAX_ENDPOINTS_PER_USER,
      (manager) =>
        this.audit.record(manager, {
          by: user,
          action: 'webhook_endpoint.created',
          target: { type: 'webhook_endpoint', id },
          // The host alone: a URL's path or query may carry a token of the receiver's.
          detail: { host: new URL(body.url).host },
        }),
    );
    if (result === 'limit reached') {
      throw new StateConflictError(
        `You have ${MAX_ENDPOINTS_PER_USER} webhook endpoints, the most one user may have; delete one to add another.`,
      );
    }
    return { ...map(result), secret };
  }

  async list(userId: string): Promise<WebhookEndpointListResponse> {
    return { endpoints: (await this.endpoints.list(userId)).map(map) };
  }

  async get(userId: string, id: string): Promise<WebhookEndpointResponse> {
    return map(await this.find(userId, id));
  }

  async secret(userId: string, id: string): Promise<EndpointSecretResponse> {
    const secret = isUuid(id) ? await this.endpoints.revealSecret(userId, id) : undefined;
    if (secret === undefined) throw notFound(id);
    return { secret };
  }

  async update(user: AuthUser, id: string, body: UpdateWebhookEndpointDto): Promise<WebhookEndpointResponse> {
    const patch = { ...body, ...(body.events && { events: [...new Set(body.events)] }) };
    const fields = Object.keys(body).sort();
    const updated = isUuid(id)
      ? await this.endpoints.update(
          user.id,
          id,
          patch,
          // An empty patch changes nothing, so records nothing.
          fields.length === 0
            ? undefined
            : (manager) =>
                this.audit.record(manager, {
                  by: user,
                  action: 'webhook_endpoint.updated',
                  target: { type: 'webhook_endpoint', id },
                  // Which fields the request set: their values may be long (a description) or private (a URL's query).
                  detail: { fields },
                }),
        )
      : undefined;
    if (!updated) throw notFound(id);
    return map(updated);
  }

  async remove(user: AuthUser, id: string): Promise<void> {
    const removed =
      isUuid(id) &&
      (await this.endpoints.remove(user.id, id, (manager) =>
        this.audit.record(manager, {
          by: user,
          action: 'webhook_endpoint.deleted',
          target: { type: 'webhook_endpoint', id },
        }),
      ));
    if (!removed) throw notFound(id);
  }

  /**
   * The new secret; the old one keeps signing beside it for 24 hours (docs/delivery-and-deliverability.md#webhooks). Rotations that
   * overlap, or come within ROTATION_COALESCE_MS of the last, answer the secret that one made
   * (a double click, ten concurrent calls): every secret answered signs, and the secret the
   * receiver held before them is still the old one.
   */
  async rotateSecret(user: AuthUser, id: string): Promise<EndpointSecretResponse> {
    const now = this.clock.now();
    const fresh = { secret: newEndpointSecret(), until: new Date(now.getTime() + ROTATION_OVERLAP_MS) };
    const since = new Date(now.getTime() - ROTATION_COALESCE_MS);
    const secret = isUuid(id)
      ? await this.endpoints.rotate(user.id, id, fresh, since, (manager) =>
          this.audit.record(manager, {
            by: user,
            action: 'webhook_endpoint.secret_rotated',
            target: { type: 'webhook_endpoint', id },
          }),
        )
      : undefined;
    if (secret === undefined) throw notFound(id);
    return { secret };
  }

  /** An `endpoint.test` event to this endpoint alone, whatever it subscribes to; 409 when it is disabled. */
  async test(userId: string, id: string): Promise<EndpointTestResponse> {
    const endpoint = await this.find(userId, id);
    if (!endpoint.enabled) throw new StateConflictError(`Webhook endpoint ${id} is disabled; enable it to test it.`);
    const [eventId] = await this.database.transaction((manager) =>
      this.outbox.record(manager, [{ userId, type: TEST_EVENT_TYPE, data: { endpointId: id }, endpointId: id }]),
    );
    return { eventId };
  }

  private async find(userId: string, id: string): Promise<WebhookEndpointEntity> {
    const endpoint = isUuid(id) ? await this.endpoints.get(userId, id) : undefined;
    if (!endpoint) throw notFound(id);
    return endpoint;
  }
}

const notFound = (id: string) => new NotFoundError(isUuid(id) ? `Webhook endpoint ${id}` : 'That webhook endpoint');

function map(endpoint: WebhookEndpointEntity): WebhookEndpointResponse {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason as 'failing' | null,
    createdAt: endpoint.createdAt.toISOString(),
  };
}
