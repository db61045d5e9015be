/** A mail the service itself sends (an invitation), from SYSTEM_MAIL_FROM. */
export interface SystemMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * The account the service's own mail is a message of: one no JWT can name (a token's `sub` may hold
 * no control character, jwt.strategy.ts), so no member, API key or JWT of any account can read the
 * links its mail holds, nor receive its webhooks. Only the mail's recipient (or, with the outbox,
 * the operator) ever sees them.
 */
export const SYSTEM_ACCOUNT_ID = '\x7fmailroom';

/**
 * The port through which auth has its own mail delivered like any message (docs/teams.md#invitations):
 * auth may not import sender, which implements it with its intake (IntakeSystemMail).
 */
export abstract class SystemMail {
  /** Accepts the mail for delivery as a message of SYSTEM_ACCOUNT_ID, never of the account it concerns. */
  abstract send(message: SystemMessage): Promise<void>;
}
