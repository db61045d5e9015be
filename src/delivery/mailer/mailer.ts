/** An email as Mailroom hands it to a transport; our own type, so no transport's leaks out. */
export interface OutgoingMail {
  /** The message id; it also goes into the Message-ID header. */
  id: string;
  /** Addresses or mailboxes with display names, as accepted (SPEC §4). */
  from: string;
  to: string[];
  cc: string[];
  /** In the envelope only, never in a header. */
  bcc: string[];
  replyTo: string[];
  subject: string;
  html: string;
  /** The plain-text part as given; null: derived from html. */
  text: string | null;
  /** Custom headers, none of them one the service writes itself. */
  headers: Record<string, string>;
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
