import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Every event the server posts, told apart by `type` (docs/delivery-and-deliverability.md#webhooks). */
export type WebhookEvent =
  | Schemas['MessageEvent']
  | Schemas['RecipientEvent']
  | Schemas['DomainEvent']
  | Schemas['SuppressionEvent']
  | Schemas['InboundReceivedEvent']
  | Schemas['EndpointTestEvent'];

/** A request's headers: a fetch `Headers`, or a plain object as Node's `IncomingMessage.headers` (any case). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** How far the `webhook-timestamp` may be from now, in seconds (Standard Webhooks suggests 5 minutes). */
  toleranceSeconds?: number;
  /** Now, for a test; `Date.now()` otherwise. */
  now?: number;
}

/** The payload's signature, id or timestamp is missing, wrong or too old: the request is not to be trusted. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

const SECRET_PREFIX = 'whsec_';
const DEFAULT_TOLERANCE_SECONDS = 5 * 60;
const encoder = new TextEncoder();

/**
 * Checks a webhook request the Standard Webhooks way (standardwebhooks.com): an HMAC-SHA256 with
 * the endpoint's secret over `{webhook-id}.{webhook-timestamp}.{body}`, one of the space-separated
 * `v1,` signatures (two while a secret is being rotated) matching, and a timestamp within the
 * tolerance so that an old request cannot be replayed. `payload` is the body exactly as it came
 * (parse it afterwards: re-serialized JSON is not what was signed). Returns the parsed event.
 * WebCrypto only (`crypto.subtle`), so it runs on Node 20+, Bun, Deno and in edge runtimes, and
 * `subtle.verify` compares the HMAC in constant time.
 */
export async function verifyWebhook(
  payload: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyOptions = {},
): Promise<WebhookEvent> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature.');

  const sentAt = /^\d+$/.test(timestamp) ? Number(timestamp) : NaN;
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isSafeInteger(sentAt) || Math.abs(now - sentAt) > tolerance)
    throw new WebhookVerificationError('The webhook-timestamp is not within the tolerance.');

  const body = typeof payload === 'string' ? payload : new TextDecoder('utf-8', { fatal: true }).decode(payload);
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    secretBytes(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const signed = encoder.encode(`${id}.${timestamp}.${body}`);
  for (const entry of signatures.split(' ')) {
    const [version, signature] = entry.split(',', 2);
    if (version !== 'v1' || !signature) continue;
    const given = base64Bytes(signature);
    if (given && (await globalThis.crypto.subtle.verify('HMAC', key, given, signed)))
      return JSON.parse(body) as WebhookEvent;
  }
  throw new WebhookVerificationError('No webhook-signature matches the payload.');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const bytes = base64Bytes(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
  if (!bytes || bytes.length === 0) throw new WebhookVerificationError('The secret is not a whsec_ base64 key.');
  return bytes;
}

/** Standard base64 (what the server signs with) as bytes; undefined when it is not base64. */
function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  const binary = globalThis.atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
