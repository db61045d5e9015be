import type { paths } from '../generated/openapi.js';
import { type Api, type CallOptions, everyItem, type QueryOf, type Schemas, unwrap, type Shape } from '../request.js';

export interface ListWebhookDeliveries extends Shape<QueryOf<paths['/user/webhook-deliveries']['get']>> {}
export interface WebhookDelivery extends Shape<Schemas['WebhookDeliveryResponse']> {}
export interface WebhookDeliveryDetails extends Shape<Schemas['WebhookDeliveryDetailsResponse']> {}
export interface WebhookDeliveryPage extends Shape<Schemas['WebhookDeliveryPageResponse']> {}

/** The log of events posted to endpoints and to messages' own webhooks, and the account's own webhook secret. */
export class WebhookDeliveries {
  /** @internal The client makes its resources. */
  constructor(private readonly api: Api) {}

  /** The secret that signs events to a message's own `webhook` (endpoints have their own). */
  async accountSecret(options: CallOptions = {}): Promise<string> {
    return (await unwrap(this.api.GET('/user/webhook-secret', { signal: options.signal }))).secret;
  }

  list(query: ListWebhookDeliveries = {}, options: CallOptions = {}): Promise<WebhookDeliveryPage> {
    return unwrap(this.api.GET('/user/webhook-deliveries', { params: { query }, signal: options.signal }));
  }

  listAll(
    query: ListWebhookDeliveries = {},
    options: CallOptions = {},
  ): AsyncGenerator<WebhookDelivery, void, undefined> {
    return everyItem(
      query,
      (q) => this.list(q, options),
      (page) => page.deliveries,
    );
  }

  get(id: string, options: CallOptions = {}): Promise<WebhookDeliveryDetails> {
    return unwrap(this.api.GET('/user/webhook-deliveries/{id}', { params: { path: { id } }, signal: options.signal }));
  }

  /** Posts the event again to the same target. */
  replay(id: string, options: CallOptions = {}) {
    return unwrap(
      this.api.POST('/user/webhook-deliveries/{id}/replay', { params: { path: { id } }, signal: options.signal }),
    );
  }
}
