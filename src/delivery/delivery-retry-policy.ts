import { MailDeliveryError, MailReceipt } from './mailer/mailer';

/** What the mailer made of one attempt: the server's receipt, or what it threw. */
export type HandOverResult = { receipt: MailReceipt } | { error: unknown };

export interface AttemptOutcome {
  status: 'sent' | 'deferred' | 'failed';
  detail: string;
  /** Set when deferred: the delay before the next attempt (0 is a retry too). */
  retryAfterSeconds?: number;
}

/**
 * The delivery retry rule (docs/delivery-and-deliverability.md#statuses): accepted is sent; a 5xx reply fails at once; anything else
 * is deferred on DELIVERY_RETRY_DELAYS (`retryDelays[attempt - 1]` after attempt `attempt`) until
 * they run out, then fails.
 */
export function deliveryRetryPolicy(
  result: HandOverResult,
  attempt: number,
  retryDelays: readonly number[],
): AttemptOutcome {
  if ('receipt' in result) {
    const { reply, rejected } = result.receipt;
    const refused = rejected.length > 0 ? ` (refused: ${rejected.map((r) => r.address).join(', ')})` : '';
    return { status: 'sent', detail: `${reply}${refused}` };
  }
  // Anything but a 5xx reply is worth retrying, including a transport that failed in a way of its
  // own (an unwritable outbox): such failures go through the same lifecycle.
  const { error } = result;
  const permanent = error instanceof MailDeliveryError && error.permanent;
  const detail = (error as Error | undefined)?.message || 'the transport failed';
  if (permanent) return { status: 'failed', detail };
  if (attempt > retryDelays.length)
    return { status: 'failed', detail: `${detail} (gave up after ${attempt} attempts)` };
  return { status: 'deferred', detail, retryAfterSeconds: retryDelays[attempt - 1] };
}
