import type { KeyObject } from 'node:crypto';

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
  /** null: a text-only message, sent as its text alone. */
  html: string | null;
  /** The plain-text part as given; null: derived from html. */
  text: string | null;
  /** Custom headers, none of them one the service writes itself. */
  headers: Record<string, string>;
  /** One with a contentId goes inline under that Content-ID, for the HTML's `cid:` references. */
  attachments: { fileName: string; contentType: string; content: Buffer; contentId: string | null }[];
  /**
   * A message submitted over SMTP (SPEC §10): these bytes go out as received, with our Message-ID
   * and `headers` added, and the other fields serve the envelope alone.
   */
  mime?: Buffer;
  /**
   * Set for one recipient's own copy, made of every message under BOUNCE_DOMAIN (the VERP envelope
   * sender names the recipient) and of bulk mail (so does List-Unsubscribe): the envelope names
   * this address alone, while the To and Cc headers stay those of the message. `position` tells
   * the copies apart.
   */
  copyFor?: {
    address: string;
    position: number;
    /** With BOUNCE_DOMAIN: the VERP envelope sender naming this recipient (SPEC §9); absent: the From address. */
    envelopeFrom?: string;
  };
  /** The DKIM key to sign with (SPEC §9); absent: sent unsigned. */
  dkim?: { domainName: string; keySelector: string; privateKey: KeyObject };
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
