// Receivers' own verifiers (docs/delivery-and-deliverability.md#webhooks): the `standardwebhooks` and `svix` npm libraries, which
// nobody here wrote, each given a request as a receiver gets it.
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import type { ReceivedRequest } from '../webhook-receiver';

const headersOf = (request: ReceivedRequest): Record<string, string> => ({
  'webhook-id': String(request.headers['webhook-id']),
  'webhook-timestamp': String(request.headers['webhook-timestamp']),
  'webhook-signature': String(request.headers['webhook-signature']),
});

function accepts(verify: () => unknown): boolean {
  try {
    verify();
    return true;
  } catch {
    return false;
  }
}

/** Whether each library verifies the request with `secret` (whsec_…). */
export function verdicts(secret: string, request: ReceivedRequest): { standardwebhooks: boolean; svix: boolean } {
  return {
    standardwebhooks: accepts(() => new StandardWebhook(secret).verify(request.rawBody, headersOf(request))),
    svix: accepts(() => new SvixWebhook(secret).verify(request.rawBody, headersOf(request))),
  };
}

export const BOTH = { standardwebhooks: true, svix: true };
export const NEITHER = { standardwebhooks: false, svix: false };
