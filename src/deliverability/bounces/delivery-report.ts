/**
 * What one report received by the inbound listener says about one recipient (docs/delivery-and-deliverability.md), as the
 * report reader understands it. The reader only reads; what the loop does with each kind is
 * decided where reports are applied.
 *
 * - `bounce`: a permanent failure about the address itself (it or its domain does not exist, or
 *   has moved): the message is bounced and the address suppressed (`hard_bounce`);
 * - `soft`: any other permanent failure (mailbox full, a policy or spam block, too large, a
 *   relay giving up after retries): the message is bounced, the address kept;
 * - `delay`: a 4.x.x notice that delivery is still being tried: a history entry only;
 * - `complaint`: a feedback report of a type in COMPLAINT_FEEDBACK_TYPES (abuse, fraud, opt-out,
 *   opt-out-list): complained, suppressed (`complaint`);
 * - `other`: an auto-reply (RFC 3834), a delivery confirmation, another kind of feedback report:
 *   no change;
 * - `unrecognized`: a report the reader could not understand: recorded as such, nothing else.
 */
export type ReportKind = 'bounce' | 'soft' | 'delay' | 'complaint' | 'other' | 'unrecognized';

export interface DeliveryReport {
  kind: ReportKind;
  /**
   * The recipient the report is about, lower-cased: Final-Recipient (else Original-Recipient) of
   * a DSN, Original-Rcpt-To (else the returned message's To) of a feedback report, the sender of
   * an auto-reply, else the address a bounce text lists; absent when it names none.
   */
  recipient?: string;
  /** The RFC 3463 status code (`5.1.1`), when the report gives or implies one. */
  status?: string;
  /** What the history shows: the remote server's diagnostic, or the reader's short summary. */
  diagnostic: string;
  /**
   * For a `soft` failure: the relay gave up after retrying (its retry period expired, the remote
   * host never answered). Not an address failure: the message is bounced, the address kept.
   */
  gaveUp?: true;
  /** For complaints: the RFC 5965 Feedback-Type. */
  feedbackType?: string;
  /** The Message-ID of the original message, when the report quotes it (for reports that reach a postmaster address rather than a VERP one). */
  originalMessageId?: string;
  /**
   * The original message's envelope sender, when the report gives it (a feedback report's
   * Original-Mail-From, else the returned original's Return-Path), lower-cased: a feedback loop
   * that sends its reports to abuse@ rather than to the envelope sender still names the VERP
   * address, and so the recipient, this way.
   */
  originalEnvelopeSender?: string;
}
