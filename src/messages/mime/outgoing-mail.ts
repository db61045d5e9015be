import type { KeyObject } from 'node:crypto';

/** An email as Mailroom hands it to a transport; our own type, so no transport's leaks out. */
export interface OutgoingMail {
  /** The message id; it also goes into the Message-ID header. */
  id: string;
  /** Addresses or mailboxes with display names, as accepted (docs/api.md#sending). */
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
   * A message submitted over SMTP (docs/api.md#smtp-submission): these bytes go out as received, with our Message-ID
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
    /** With BOUNCE_DOMAIN: the VERP envelope sender naming this recipient (docs/delivery-and-deliverability.md); absent: the From address. */
    envelopeFrom?: string;
  };
  /**
   * Set for a retry of some of the recipients (docs/delivery-and-deliverability.md#statuses): the envelope names these
   * addresses alone, while the headers stay the message's (Bcc never among them). Ignored for a copy (`copyFor`).
   */
  envelopeTo?: string[];
  /** The Date header; absent: the moment of composing (as each delivery attempt does). */
  date?: Date;
  /** The DKIM key to sign with (docs/delivery-and-deliverability.md); absent: sent unsigned. */
  dkim?: { domainName: string; keySelector: string; privateKey: KeyObject };
}
