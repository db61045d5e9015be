import { DeliveriesSection } from './deliveries-section';
import { EndpointsSection } from './endpoints-section';

/** Webhooks (docs/delivery-and-deliverability.md#webhooks, docs/architecture.md#the-console): the account's endpoints, then the deliveries to them with replay. */
export function WebhooksPage() {
  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title">Webhooks</h1>
      <p className="muted">
        Endpoints receive the events of all your messages and of your account, each request signed with the
        endpoint&apos;s own secret (Standard Webhooks).
      </p>
      <EndpointsSection />
      <DeliveriesSection />
    </section>
  );
}
