// What a webhook receiver sees (docs/delivery-and-deliverability.md#webhooks): Standard Webhooks signatures and the events they carry.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ReceivedRequest } from '../webhook-receiver';

/**
 * Standard Webhooks verification, written here from the specification and not from src: the key is
 * the base64 after `whsec_`, the MAC is HMAC-SHA256 over `id.timestamp.body`, and the header holds
 * space-separated `v1,<base64>` signatures of which one must match.
 */
export function verifies(
  secret: string,
  id: string,
  timestamp: string,
  rawBody: string,
  signatureHeader: string,
): boolean {
  if (!secret.startsWith('whsec_')) return false;
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${rawBody}`).digest();
  return signatureHeader.split(' ').some((part) => {
    const [version, signature] = part.split(',');
    if (version !== 'v1' || !signature) return false;
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export function header(request: ReceivedRequest, name: string): string {
  const value = request.headers[name];
  if (typeof value !== 'string')
    throw new Error(`The request to ${request.path} has no single ${name} header: ${JSON.stringify(request.headers)}`);
  return value;
}

export const verifiesRequest = (secret: string, request: ReceivedRequest) =>
  verifies(
    secret,
    header(request, 'webhook-id'),
    header(request, 'webhook-timestamp'),
    request.rawBody,
    header(request, 'webhook-signature'),
  );

export interface WebhookEvent {
  /** The event's id, as its webhook-id header (docs/delivery-and-deliverability.md#webhooks). */
  id: string;
  type: string;
  timestamp: string;
  data: {
    message: Record<string, any> & {
      status: string;
      statusHistory: { status: string; at: string; detail: string | null }[];
    };
    sequence: number;
  };
}

const eventOf = (request: ReceivedRequest): WebhookEvent => JSON.parse(request.rawBody);

/** The distinct events among requests (a retry repeats a webhook-id), ordered by sequence. */
export function distinctEvents(requests: ReceivedRequest[]): { id: string; event: WebhookEvent }[] {
  const byId = new Map<string, WebhookEvent>();
  for (const r of requests) byId.set(header(r, 'webhook-id'), eventOf(r));
  return [...byId].map(([id, event]) => ({ id, event })).sort((a, b) => a.event.data.sequence - b.event.data.sequence);
}
