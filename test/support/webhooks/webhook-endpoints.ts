// The webhook endpoints a user calls (docs/delivery-and-deliverability.md#webhooks): the signing secret and the delivery log.
import type TestAgent from 'supertest/lib/agent';
import { bearer } from '../tokens';

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function secretOf(http: TestAgent, userId: string): Promise<string> {
  const { body } = await http.get('/user/webhook-secret').set(bearer(userId)).expect(200);
  return body.secret;
}

export async function deliveriesOf(http: TestAgent, userId: string, query: Record<string, string | number> = {}) {
  const { body } = await http.get('/user/webhook-deliveries').query(query).set(bearer(userId)).expect(200);
  return body;
}

/** Polls the delivery log of one message until `done` holds for its deliveries. */
export async function waitForLog(
  http: TestAgent,
  userId: string,
  messageId: string,
  done: (deliveries: any[]) => boolean,
  what: string,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { deliveries } = await deliveriesOf(http, userId, { messageId, take: 100 });
    if (done(deliveries)) return deliveries as any[];
    if (Date.now() > deadline)
      throw new Error(`The delivery log of ${messageId} never showed ${what}: ${JSON.stringify(deliveries, null, 1)}`);
    await sleep(100);
  }
}

export const allIn = (state: string, count: number) => (deliveries: any[]) =>
  deliveries.length === count && deliveries.every((d) => d.state === state);
