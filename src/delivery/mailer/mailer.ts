import { envelopeOf } from '../../messages';
import type { OutgoingMail } from '../../messages';

/**
 * Where a transaction went (docs/delivery-and-deliverability.md#direct-delivery): the MX host that
 * answered and whether TLS protected the session. Set by direct delivery only: a relay's pooled
 * nodemailer session does not say whether it used TLS (its reply names the relay instead), and the
 * outbox goes nowhere.
 */
export interface Route {
  host: string;
  tls: boolean;
}

/** The server's refusal of one recipient at RCPT TO. */
export interface Refusal {
  /** The envelope address refused. */
  address: string;
  /** The server's reply to its RCPT TO. */
  reply: string;
  /** A 5xx reply (else a 4xx: worth another try). */
  permanent: boolean;
}

export interface MailReceipt {
  /** The server's reply, for the status history. */
  reply: string;
  /** Recipients the server refused while accepting the others, each with its reply. */
  rejected: Refusal[];
  /** Where it went: direct delivery only (absent for relays and the outbox). */
  route?: Route;
}

/** One SMTP transaction of a hand-over, for the envelope recipients it carried, and what came of it. */
export interface Transaction {
  /** Its envelope recipients, addresses as the envelope gave them. */
  recipients: string[];
  result: { receipt: MailReceipt } | { error: unknown };
}

/** A failed hand-over: permanent (a 5xx reply) or worth retrying (4xx, timeout, refused connection). */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    /** The SMTP command the reply answered (`RCPT TO`, `DATA`…), when the server replied. */
    readonly command?: string,
    /** When every recipient was refused at RCPT TO: each refusal. */
    readonly refused: Refusal[] = [],
    /** Where it went, when direct delivery reached a server (never for relays). */
    readonly route?: Route,
  ) {
    super(message);
  }
}

/** The port every transport implements; chosen by configuration (SMTP_URL: relays, `direct`, or unset: the outbox). */
export abstract class Mailer {
  /**
   * Hands the mail over as the transactions the transport makes of it, each with its own result:
   * one for every envelope recipient for a relay and the outbox (SingleTransactionMailer), one per
   * recipient domain for direct delivery.
   */
  abstract deliver(mail: OutgoingMail): Promise<Transaction[]>;
}

/** A transport that hands a mail over as one SMTP transaction for all its envelope recipients: a relay, the outbox. */
export abstract class SingleTransactionMailer extends Mailer {
  /** Hands the mail over as one transaction for all its envelope recipients. */
  abstract send(mail: OutgoingMail): Promise<MailReceipt>;

  deliver(mail: OutgoingMail): Promise<Transaction[]> {
    return asOneTransaction(mail, (one) => this.send(one));
  }
}

/** The mail's one transaction for all its envelope recipients, with what `send` came to. */
export async function asOneTransaction(
  mail: OutgoingMail,
  send: (mail: OutgoingMail) => Promise<MailReceipt>,
): Promise<Transaction[]> {
  const recipients = envelopeOf(mail).to;
  try {
    return [{ recipients, result: { receipt: await send(mail) } }];
  } catch (error) {
    return [{ recipients, result: { error } }];
  }
}
