import { Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { AppConfig } from '../config/app-config';

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

  /** The `webhook-signature` header value. */
  sign(userId: string, id: string, timestamp: number, body: string): string {
    const mac = createHmac('sha256', this.keyFor(userId)).update(`${id}.${timestamp}.${body}`).digest('base64');
    return `v1,${mac}`;
  }

  private keyFor(userId: string): Buffer {
    return createHmac('sha256', this.config.webhooks.signingKey).update(`mailroom webhook secret\n${userId}`).digest();
  }
}
