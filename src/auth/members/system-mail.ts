/** A mail the service itself sends (an invitation), from SYSTEM_MAIL_FROM. */
export interface SystemMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * The port through which auth has its own mail delivered like any message (docs/teams.md#invitations):
 * auth may not import sender, which implements it with its intake (IntakeSystemMail).
 */
export abstract class SystemMail {
  /** Accepts the mail for delivery as a message of `accountId`. */
  abstract send(accountId: string, message: SystemMessage): Promise<void>;
}
