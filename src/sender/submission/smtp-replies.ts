import { InvalidInputError, PayloadTooLargeError, RateLimitedError } from '../../platform/problem/problem.errors';
import { type SmtpReply, smtpReply } from '../../platform/smtp/smtp-reply';

/**
 * A refusal of the intake as an SMTP reply at DATA (docs/api.md#smtp-submission): what the REST API answers with 400
 * or 413 is permanent (554, naming each failing field as the problem does), its 429 and anything
 * else (the database away) are worth retrying (451). undefined: a failure that is ours to log.
 */
export function replyToRefusal(error: unknown): SmtpReply | undefined {
  if (error instanceof InvalidInputError) {
    return smtpReply(
      554,
      `Message refused: ${error.errors.map(({ field, message }) => `${field} ${message}`).join('; ')}`,
    );
  }
  if (error instanceof PayloadTooLargeError) return smtpReply(552, `Message refused: ${error.message}`);
  if (error instanceof RateLimitedError) return smtpReply(451, `Rate limit reached: ${error.message}`);
  return undefined;
}
