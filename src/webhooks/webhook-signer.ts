import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { AppConfig } from '../platform/config/app-config';

/**
 * Standard Webhooks signatures: each user has a secret derived from WEBHOOK_SIGNING_KEY (so none
 * is stored), and each request is signed over `id.timestamp.body` with HMAC-SHA256.
 */
@Injectable()
export class WebhookSigner {
  constructor(private readonly config: AppConfig) {}

  /** `whsec_` + base64 of the 32 secret bytes, as Standard Webhooks libraries expect. */
  secretFor(userId: string): string {
    return `whsec_${this.keyFor(userId).toString('base64')}`;
  }

  /** The `webhook-signature` header value, with the user's secret (a message's own webhook). */
  sign(userId: string, id: string, timestamp: number, body: string): string {
    return signature(this.keyFor(userId), id, timestamp, body);
  }

  /** The header with one signature per `whsec_` secret, space-separated (an endpoint's, docs/delivery-and-deliverability.md#webhooks). */
  signWith(secrets: string[], id: string, timestamp: number, body: string): string {
    return secrets
      .map((secret) => signature(Buffer.from(secret.slice('whsec_'.length), 'base64'), id, timestamp, body))
      .join(' ');
  }

  private keyFor(userId: string): Buffer {
    return createHmac('sha256', this.config.webhooks.signingKey).update(`mailroom webhook secret\n${userId}`).digest();
  }
}

/** `v1,` + base64(HMAC-SHA256(key, `id.timestamp.body`)), as Standard Webhooks defines it. */
function signature(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
