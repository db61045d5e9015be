import type { OutgoingMail } from '../../messages';

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
  ) {
    super(message);
  }
}

/** The port every transport implements; chosen by configuration (SMTP_URL set or not). */
export abstract class Mailer {
  abstract send(mail: OutgoingMail): Promise<MailReceipt>;
}
