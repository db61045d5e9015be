// Helpers of the endpoint delivery specs (docs/delivery-and-deliverability.md#webhooks): endpoints made through the API, and the
// events a receiver path got, one per webhook-id.
import type TestAgent from 'supertest/lib/agent';
import { bearer } from '../tokens';
import type { ReceivedRequest, WebhookReceiver } from '../webhook-receiver';

export interface Endpoint {
  id: string;
  secret: string;
}

export interface AccountEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, any>;
}

export async function createEndpoint(
  http: TestAgent,
  userId: string,
  url: string,
  events?: string[],
): Promise<Endpoint> {
  const { body } = await http
    .post('/user/webhook-endpoints')
    .set(bearer(userId))
    .send({ url, ...(events && { events }) })
    .expect(201);
  return { id: body.id, secret: body.secret };
}

/** The events that reached `path`, one per webhook-id, in arrival order, with every request that carried each. */
export function eventsAt(
  receiver: WebhookReceiver,
  path: string,
): { event: AccountEvent; requests: ReceivedRequest[] }[] {
  const byId = new Map<string, ReceivedRequest[]>();
  for (const request of receiver.on(path)) {
    const id = String(request.headers['webhook-id']);
    byId.set(id, [...(byId.get(id) ?? []), request]);
  }
  return [...byId.values()].map((requests) => ({ event: JSON.parse(requests[0].rawBody), requests }));
}

export const typesAt = (receiver: WebhookReceiver, path: string): string[] =>
  eventsAt(receiver, path)
    .map(({ event }) => event.type)
    .sort();
