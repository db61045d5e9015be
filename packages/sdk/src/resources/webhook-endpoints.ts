import type { paths } from '../generated/openapi.js';
import { type Api, type BodyOf, type CallOptions, type Schemas, unwrap, type Shape } from '../request.js';

export interface CreateWebhookEndpoint extends Shape<BodyOf<paths['/user/webhook-endpoints']['post']>> {}
export interface UpdateWebhookEndpoint extends Shape<BodyOf<paths['/user/webhook-endpoints/{id}']['patch']>> {}
export interface WebhookEndpoint extends Shape<Schemas['WebhookEndpointResponse']> {}
export interface CreatedWebhookEndpoint extends Shape<Schemas['CreatedWebhookEndpointResponse']> {}

export class WebhookEndpoints {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** The endpoint's signing secret is in the answer (and from `secret(id)` later). */
  create(endpoint: CreateWebhookEndpoint, options: CallOptions = {}): Promise<CreatedWebhookEndpoint> {
    return unwrap(this.api.POST('/user/webhook-endpoints', { body: endpoint, signal: options.signal }));
  }

  /** Every endpoint, oldest first, without secrets. */
  async list(options: CallOptions = {}): Promise<WebhookEndpoint[]> {
    return (await unwrap(this.api.GET('/user/webhook-endpoints', { signal: options.signal }))).endpoints;
  }

  get(id: string, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return unwrap(this.api.GET('/user/webhook-endpoints/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  update(id: string, changes: UpdateWebhookEndpoint, options: CallOptions = {}): Promise<WebhookEndpoint> {
    return unwrap(
      this.api.PATCH('/user/webhook-endpoints/{id}', {
        params: { path: { id } },
        body: changes,
        signal: options.signal,
      }),
    );
  }

  async remove(id: string, options: CallOptions = {}): Promise<void> {
    await unwrap(this.api.DELETE('/user/webhook-endpoints/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  async secret(id: string, options: CallOptions = {}): Promise<string> {
    const path = '/user/webhook-endpoints/{id}/secret';
    return (await unwrap(this.api.GET(path, { params: { path: { id } }, signal: options.signal }))).secret;
  }

  /** A new secret; for 24 hours deliveries carry a signature with each, so `verifyWebhook` with either passes. */
  async rotateSecret(id: string, options: CallOptions = {}): Promise<string> {
    const path = '/user/webhook-endpoints/{id}/rotate-secret';
    return (await unwrap(this.api.POST(path, { params: { path: { id } }, signal: options.signal }))).secret;
  }

  /** Sends an `endpoint.test` event to this endpoint alone; its id. */
  async test(id: string, options: CallOptions = {}): Promise<string> {
    const path = '/user/webhook-endpoints/{id}/test';
    return (await unwrap(this.api.POST(path, { params: { path: { id } }, signal: options.signal }))).eventId;
  }
}
