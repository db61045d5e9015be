/** An email as Mailroom hands it to a transport; our own type, so no transport's leaks out. */
export interface OutgoingMail {
  /** The message id; it also goes into the Message-ID header. */
  id: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  attachments: { fileName: string; contentType: string; content: Buffer }[];
}

export interface MailReceipt {
  /** The server's reply, for the status history. */
  reply: string;
  /** Recipients the server refused while accepting the others. */
  rejected: string[];
}

/** A failed hand-over: permanent (a 5xx reply) or worth retrying (4xx, timeout, refused connection). */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** The port every transport implements; chosen by configuration (SMTP_URL set or not). */
export abstract class Mailer {
  abstract send(mail: OutgoingMail): Promise<MailReceipt>;
}
