import type { Readable } from 'node:stream';
import { AddressObject, EmailAddress, HeaderLines } from 'mailparser';
import { InvalidInputError } from '../../platform/problem/problem.errors';
import { addressKey } from '../../platform/mail/addresses';
import { parseSubmission } from './parsed-submission';

/**
 * Fields a message has at most once (RFC 5322 §3.6), by mailparser's lower-case key. A second
 * From is how a spoof shows a reader one sender while the signature and `sender` follow another.
 */
const ONCE_ONLY = new Map(
  ['From', 'Sender', 'To', 'Cc', 'Subject', 'Message-ID'].map((name) => [name.toLowerCase(), name]),
);

/** What a submitted message asks for, as a REST send body (validated as one), and what its attachments weigh. */
export interface SubmittedSendBody {
  body: {
    subject: string;
    html: string;
    text?: string;
    sender?: string;
    to: string[];
    cc?: string[];
    bcc?: string[];
    replyTo?: string[];
  };
  /** Decoded bytes of every attachment, inline images included (MAX_ATTACHMENT_BYTES counts them). */
  attachmentBytes: number;
}

/**
 * Reads a message submitted over SMTP (docs/api.md#smtp-submission) into the send body it amounts to, with
 * mailparser: the subject decoded; html the HTML part, else the text part as HTML; text the text
 * part; the sender the From header's mailbox (several, or none, give a value the validation
 * refuses, naming `sender`). The envelope decides who gets it: `to` and `cc` are the To and Cc
 * mailboxes that are envelope recipients, `bcc` the envelope recipients named in neither; when
 * no To mailbox is one (`To: undisclosed-recipients:;`), those recipients are `to` instead, since
 * a send has at least one. A field that may appear once and appears more is refused by name.
 */
export async function readSubmittedSendBody(
  mime: Buffer | Readable,
  envelopeRecipients: string[],
): Promise<SubmittedSendBody> {
  const parsed = await parseSubmission(mime);
  refuseRepeatedFields(parsed.headerLines);
  const envelope = new Set(envelopeRecipients.map(addressKey));
  const inEnvelope = (mailbox: EmailAddress) => envelope.has(addressKey(mailbox.address!));
  const to = mailboxesOf(parsed.to).filter(inEnvelope);
  const cc = mailboxesOf(parsed.cc).filter(inEnvelope);
  const named = new Set([...to, ...cc].map((m) => addressKey(m.address!)));
  const unnamed = envelopeRecipients.filter((address) => !named.has(addressKey(address)));
  const recipients =
    to.length > 0
      ? { to: to.map(formatted), cc: cc.map(formatted), bcc: unnamed }
      : {
          to: unnamed.length > 0 ? unnamed : cc.map(formatted),
          cc: unnamed.length > 0 ? cc.map(formatted) : [],
          bcc: [],
        };
  const from = mailboxesOf(parsed.from);
  const replyTo = mailboxesOf(parsed.replyTo).map(formatted);
  const text = parsed.text?.replace(/\n$/, '');
  return {
    body: {
      subject: parsed.subject ?? '',
      html: typeof parsed.html === 'string' ? parsed.html : (parsed.textAsHtml ?? ''),
      ...(text !== undefined && { text }),
      // Not one mailbox: the header's text, which the validation refuses by name.
      ...(parsed.from && { sender: from.length === 1 ? formatted(from[0]) : parsed.from.text }),
      to: recipients.to,
      ...(recipients.cc.length > 0 && { cc: recipients.cc }),
      ...(recipients.bcc.length > 0 && { bcc: recipients.bcc }),
      ...(replyTo.length > 0 && { replyTo }),
    },
    attachmentBytes: parsed.attachmentBytes,
  };
}

function refuseRepeatedFields(headerLines: HeaderLines): void {
  const counts = new Map<string, number>();
  for (const { key } of headerLines) if (ONCE_ONLY.has(key)) counts.set(key, (counts.get(key) ?? 0) + 1);
  const repeated = [...counts].filter(([, count]) => count > 1);
  if (repeated.length > 0) {
    throw new InvalidInputError(
      repeated.map(([key, count]) => ({
        field: ONCE_ONLY.get(key)!,
        message: `appears ${count} times; a message has at most one (RFC 5322 section 3.6)`,
      })),
    );
  }
}

/** The mailboxes of an address header, groups opened up; entries without an address are dropped. */
function mailboxesOf(header: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  const objects = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return objects
    .flatMap((object) => object.value)
    .flatMap((entry) => entry.group ?? [entry])
    .filter((entry) => !!entry.address);
}

/**
 * A mailbox as the send body takes one (docs/api.md#sending): the bare address, or the decoded display name
 * in quotes before it. A name the validation cannot take (control characters) is refused there.
 */
function formatted({ name, address }: EmailAddress): string {
  return name ? `"${name.replace(/["\\]/g, '\\$&')}" <${address}>` : address!;
}
