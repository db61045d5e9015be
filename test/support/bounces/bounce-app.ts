// The app the bounce-loop specs run (docs/delivery-and-deliverability.md): ROLE=all with BOUNCE_DOMAIN and the inbound
// listener on a free port, delivering to a real SMTP sink, webhooks to a real receiver.
import { InboundSmtpListener } from '../../../src/inbound/inbound-smtp.listener';
import { bearer } from '../tokens';
import { waitForStatus } from '../wait-for';
import { bootWebhookApp, TO_LOOPBACK, WebhookApp } from '../webhooks/webhook-app';

export const BOUNCE_DOMAIN = 'bounces.mailroom.test';
export const ENCRYPTION_KEY = 'e2e-data-encryption-key-0123456789-abcdefghij';

export interface BounceApp extends WebhookApp {
  /** The listener's port, once booted. */
  inboundPort(): number;
  /** Sends through the API, waits until sent; returns the message and each recipient's VERP address as the sink saw it. */
  deliver(userId: string, overrides?: Record<string, unknown>): Promise<{ id: string; verp: Map<string, string> }>;
  get: (userId: string, id: string) => Promise<any>;
  suppressions(userId: string): Promise<{ email: string; reason: string; scope: string; messageId: string | null }[]>;
}

export function bootBounceApp(env: Record<string, string> = {}): BounceApp {
  const app = bootWebhookApp({
    ...TO_LOOPBACK,
    BOUNCE_DOMAIN,
    INBOUND_SMTP_PORT: '0',
    DATA_ENCRYPTION_KEY: ENCRYPTION_KEY,
    ...env,
  });
  const { t, sink, send } = app;
  return {
    ...app,
    inboundPort: () => t.app.get(InboundSmtpListener).port!,
    deliver: async (userId, overrides = {}) => {
      const accepted = await send(userId, overrides);
      await waitForStatus(t.http, userId, accepted.id, 'sent');
      const verp = new Map(
        sink.acceptedFor(accepted.id).flatMap((mail) => mail.to.map((to) => [to.toLowerCase(), mail.from] as const)),
      );
      return { id: accepted.id, verp };
    },
    get: async (userId, id) => (await t.http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200)).body,
    suppressions: async (userId) =>
      (await t.http.get('/user/suppressions').query({ take: 100 }).set(bearer(userId)).expect(200)).body.suppressions,
  };
}
