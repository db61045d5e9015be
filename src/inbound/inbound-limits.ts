import { SmtpSessionLimits } from '../platform/smtp/smtp-session-limits';

/**
 * What one inbound SMTP client may take of a worker (docs/delivery-and-deliverability.md: the listener faces the internet),
 * beside the connections and session time every SMTP server of ours limits.
 * A report is small: bounces quote headers or a part of the message, not megabytes.
 */
export class InboundLimits extends SmtpSessionLimits {
  /**
   * Bytes of one message to BOUNCE_DOMAIN's addresses (past it, 552). SIZE advertises
   * INBOUND_MAX_BYTES, the limit of mail for receiving domains (InboundMailLimits).
   */
  messageBytes = 1024 * 1024;
  /** Idle time before the server hangs up. */
  idleMs = 60_000;
  /**
   * BOUNCE_DOMAIN recipients of one transaction (a report goes to one address); past it, 452. The
   * transaction's whole count is InboundMailLimits.recipients.
   */
  recipientsPerMessage = 10;
  /**
   * Unknown recipients in one session: the last of them is answered 421 and the session closed
   * (as smtp-server does at its tenth unknown command). Nobody guesses tokens at leisure.
   */
  refusedRecipients = 10;
  /** Transactions (MAIL FROM) in one session. */
  transactions = 20;
  /**
   * Time given to sessions in flight at shutdown, within docs/scaling.md's 30 s beside the workers' drain.
   * A session cut off gets no reply, so its sender tries again; a report it carried is applied once.
   */
  closeMs = 2_000;
}
