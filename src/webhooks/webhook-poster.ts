import { Injectable } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AppConfig } from '../platform/config/app-config';
import { isPublicAddress, literalAddress } from './public-address';
import { PRIVATE_NETWORKS_HINT, publicOnlyLookup } from './webhook-target';

export interface WebhookResponse {
  /** Absent when no response came (refused target, timeout, connection error). */
  statusCode?: number;
  /** The first RESPONSE_BODY_BYTES of the answer, as UTF-8 (invalid bytes replaced); absent when none came. */
  responseBody?: string;
  error?: string;
  durationMs: number;
}

// Enough to read an error page; only its first RESPONSE_BODY_BYTES are kept.
const MAX_RESPONSE_BYTES = 64 * 1024;
/** What the delivery log keeps of an answer. */
export const RESPONSE_BODY_BYTES = 1024;

/**
 * One POST of a signed event: within WEBHOOK_TIMEOUT_MS, redirects not followed, and only to
 * public addresses unless WEBHOOK_ALLOW_PRIVATE_NETWORKS (checked at connection time).
 */
@Injectable()
export class WebhookPoster {
  constructor(private readonly config: AppConfig) {}

  post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const target = new URL(url);
    const { allowPrivateNetworks, timeoutMs } = this.config.webhooks;
    const literal = literalAddress(target);
    if (!allowPrivateNetworks && literal && !isPublicAddress(literal)) {
      return Promise.resolve({
        error: `${literal} is not a public address; webhooks may not reach it (${PRIVATE_NETWORKS_HINT})`,
        durationMs: 0,
      });
    }
    return new Promise((resolve) => {
      const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
        target,
        {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'user-agent': 'Mailroom-Webhooks/1',
          },
          ...(allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
          signal: AbortSignal.timeout(timeoutMs),
        },
        (response) => {
          let received = 0;
          const kept: Buffer[] = [];
          response.on('data', (chunk: Buffer) => {
            if (received < RESPONSE_BODY_BYTES) kept.push(chunk.subarray(0, RESPONSE_BODY_BYTES - received));
            received += chunk.length;
            if (received > MAX_RESPONSE_BYTES) response.destroy();
          });
          response.on('close', () =>
            resolve({ statusCode: response.statusCode, responseBody: textOf(kept), durationMs: elapsed() }),
          );
        },
      );
      request.on('error', (error: NodeJS.ErrnoException) => {
        const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
        resolve({
          error: timedOut ? `no answer within ${timeoutMs} ms` : error.message || error.code || 'connection failed',
          durationMs: elapsed(),
        });
      });
      request.end(body);
    });
  }
}

/**
 * Bytes as UTF-8 text, an invalid sequence (or a character cut at the end) as U+FFFD; NUL too,
 * which PostgreSQL's text cannot hold.
 */
function textOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).toString('utf8').replaceAll('\0', '\uFFFD');
}
