import { Logger } from '@nestjs/common';
import { eventIdOf, eventTypeOf } from './webhook-events.repository';
import type { WebhookEventRow } from './webhook-events.repository';
import type { WebhookState } from './webhook-state';
import type { WebhookResponse } from './webhook-poster';

const logger = new Logger('Webhooks');

/**
 * One line per attempt: the event, its message and owner, the attempt, the receiver's answer (or
 * why there was none) and what follows. The target is logged without its query string, which
 * may carry the receiver's own credentials.
 */
export function logWebhookOutcome(
  event: WebhookEventRow,
  response: WebhookResponse,
  state: WebhookState,
  nextAttemptAt: Date | null,
): void {
  const attempt = event.attempts + 1;
  const { origin, pathname } = new URL(event.url);
  const answer = response.statusCode !== undefined ? `HTTP ${response.statusCode}` : response.error;
  const outcome = state === 'pending' ? 'retrying' : state;
  const line = {
    eventId: eventIdOf(event),
    deliveryId: event.id,
    endpointId: event.endpointId,
    messageId: event.messageId,
    userId: event.userId,
    type: eventTypeOf(event),
    attempt,
    outcome,
    statusCode: response.statusCode,
    error: response.error,
    durationMs: response.durationMs,
    target: `${origin}${pathname}`,
    nextAttemptAt: nextAttemptAt?.toISOString(),
  };
  if (outcome === 'delivered') logger.log(line, `Webhook delivered (attempt ${attempt}): ${answer}`);
  else if (outcome === 'retrying')
    logger.log(line, `Webhook not delivered (attempt ${attempt}): ${answer}; next attempt at ${line.nextAttemptAt}`);
  else if (outcome === 'gone')
    logger.warn(line, `Webhook gone (attempt ${attempt}): ${answer}; the receiver asked for no more`);
  else logger.warn(line, `Webhook failed (attempt ${attempt}): ${answer}; no attempts left`);
}
