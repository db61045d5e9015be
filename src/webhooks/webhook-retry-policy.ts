import type { WebhookState } from './webhook-state';

export interface WebhookAttemptOutcome {
  state: WebhookState;
  /** Set when another attempt is due: the delay before it. */
  retryAfterSeconds?: number;
}

/**
 * The webhook retry rule (docs/delivery-and-deliverability.md#webhooks): a 2xx is delivered, a 410 is gone (the receiver asked for no
 * more), anything else (another status, or no answer) is retried after `retryDelays[attemptsBefore]`
 * until they run out, then failed. `attemptsBefore` counts the event's earlier attempts, replays
 * included, so a replay gets one attempt and no new retries.
 */
export function webhookRetryPolicy(
  statusCode: number | undefined,
  attemptsBefore: number,
  retryDelays: readonly number[],
): WebhookAttemptOutcome {
  if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) return { state: 'delivered' };
  if (statusCode === 410) return { state: 'gone' };
  const retryAfterSeconds = retryDelays[attemptsBefore];
  return retryAfterSeconds === undefined ? { state: 'failed' } : { state: 'pending', retryAfterSeconds };
}
