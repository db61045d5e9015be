import { Logger } from '@nestjs/common';
import type { FinishedAttempt } from './delivery.repository';

const logger = new Logger('Delivery');

/**
 * One line per finished attempt, as a mail server logs its deliveries: the message, its owner,
 * the attempt and what the receiving server said, and when a deferred message is tried next.
 */
export function logOutcome(
  finished: FinishedAttempt & { userId: string },
  recorded: boolean,
  nextAttemptAtRecorded: Date | null,
  recordedAfterMs: number,
): void {
  const { messageId, userId, attempt, status, detail } = finished;
  const nextAttemptAt = nextAttemptAtRecorded?.toISOString();
  // The time the mail server's acceptance went unrecorded: a crash within it sends the message twice.
  const line = {
    messageId,
    userId,
    attempt,
    outcome: status,
    detail,
    nextAttemptAt,
    recordedAfterMs: Math.round(recordedAfterMs * 10) / 10,
  };
  if (!recorded) {
    // Another attempt finished first (a job taken over after its lease): this one was a duplicate.
    logger.warn(line, `Delivery ${status} (attempt ${attempt}) but not recorded, the message had moved on: ${detail}`);
  } else if (status === 'sent') {
    logger.log(line, `Delivery sent (attempt ${attempt}): ${detail}`);
  } else if (status === 'deferred') {
    logger.log(line, `Delivery deferred (attempt ${attempt}): ${detail}; next attempt at ${nextAttemptAt}`);
  } else {
    logger.warn(line, `Delivery failed (attempt ${attempt}): ${detail}`);
  }
}
