import type { Readable } from 'node:stream';
import { isUtf8 } from 'node:buffer';
import type { KeyObject } from 'node:crypto';
import { addressOf, parseMailbox } from '../../platform/validation/mailbox';
import { submittedMime, submittedMimeStream } from './submitted-mime';
import type { OutgoingMail } from './outgoing-mail';
import { textAlternative } from './text-alternative';

/** An address as nodemailer takes it: a bare one as the string, a named one in parts for nodemailer to encode. */
export type MimeAddress = string | { name: string; address: string };

/** What nodemailer needs of a message, typed narrowly so that both nodemailer and @nestjs-modules/mailer take it. */
export type MimeMessage = ComposedMessage | SubmittedMessage;

/** A message nodemailer composes from our fields. */
export interface ComposedMessage {
  messageId: string;
  date?: Date;
  from: MimeAddress;
  to: MimeAddress[];
  cc: MimeAddress[];
  /** nodemailer puts these in the envelope and, not being told to keep them, in no header. */
  bcc: MimeAddress[];
  replyTo: MimeAddress[];
  subject: string;
  /** Absent: a text-only message, one text/plain part (with attachments, in multipart/mixed). */
  html?: string;
  text: string;
  headers: { key: string; value: string }[];
  attachments: MimeAttachment[];
  disableFileAccess: true;
  disableUrlAccess: true;
  /** A recipient's own copy: MAIL FROM and RCPT TO as given, not taken from the headers. */
  envelope?: { from: string; to: string[] };
  dkim?: { domainName: string; keySelector: string; privateKey: KeyObject; headerFieldNames: string };
}

/**
 * An attachment as nodemailer takes it. One with a `cid` goes inline beside the HTML, in
 * multipart/related when there is HTML (nodemailer builds it), under `Content-ID: <cid>`.
 */
export interface MimeAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
  cid?: string;
  contentDisposition?: 'inline';
}

/** A message submitted over SMTP: sent as its bytes say, to the envelope given. */
export interface SubmittedMessage {
  messageId: string;
  raw: Buffer;
  envelope: { from: string; to: string[] };
  disableFileAccess: true;
  disableUrlAccess: true;
  dkim?: ComposedMessage['dkim'];
}

/**
 * What a DKIM signature covers (docs/delivery-and-deliverability.md), those present of them: the fields a reader sees and
 * trusts, the MIME structure, and the one-click unsubscribe pair (RFC 8058 §4 requires both signed).
 */
export const SIGNED_HEADER_FIELDS = [
  'From',
  'Sender',
  'Reply-To',
  'To',
  'Cc',
  'Subject',
  'Date',
  'Message-ID',
  'In-Reply-To',
  'References',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'List-Id',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
].join(':');

/**
 * The nodemailer message for one of ours: HTML with a plain-text alternative (the one given, or
 * one derived from the HTML), or the text alone for a text-only message; and a Message-ID that
 * carries our id.
 */
export async function toMimeMessage(mail: OutgoingMail): Promise<MimeMessage> {
  const from = mimeAddress(mail.from);
  const messageId = messageIdOf(mail);
  if (mail.mime) return toSubmittedMessage(mail, mail.mime, messageId);
  return {
    messageId,
    ...(mail.date && { date: mail.date }),
    from,
    to: mail.to.map(mimeAddress),
    cc: mail.cc.map(mimeAddress),
    // A copy, or a retry of some recipients, goes to its envelope alone; nodemailer would add the bcc to it.
    bcc: mail.copyFor || mail.envelopeTo ? [] : mail.bcc.map(mimeAddress),
    replyTo: mail.replyTo.map(mimeAddress),
    subject: mail.subject,
    ...bodiesOf(mail),
    // A list, not an object: a header named like one of Object.prototype's keys stays a header.
    headers: Object.entries(mail.headers).map(([key, value]) => ({ key, value })),
    attachments: mail.attachments.map((a) => ({
      filename: a.fileName,
      contentType: withCharset(a.contentType, a.content),
      content: a.content,
      // Inline whatever its type: nodemailer would make only an image inline (docs/api.md#sending says every one).
      ...(a.contentId !== null && { cid: a.contentId, contentDisposition: 'inline' as const }),
    })),
    // Addresses and names were validated on acceptance; nodemailer must not re-read them as files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
    ...((mail.copyFor || mail.envelopeTo) && { envelope: envelopeOf(mail) }),
    ...(mail.dkim && { dkim: { ...mail.dkim, headerFieldNames: SIGNED_HEADER_FIELDS } }),
  };
}

/** The HTML part, if any, and the plain-text one: as given, else derived from the HTML. */
export function bodiesOf(mail: Pick<OutgoingMail, 'html' | 'text'>): { html?: string; text: string } {
  // Validation asks a text-only message for its text; '' only for a message stored otherwise.
  if (mail.html === null) return { text: mail.text ?? '' };
  return { html: mail.html, text: mail.text ?? textAlternative(mail.html) };
}

/**
 * A submitted message's own bytes (with our Message-ID and a copy's headers), to the envelope
 * its recipients make: every one of them, or the copy's one recipient (docs/api.md#smtp-submission).
 */
async function toSubmittedMessage(mail: OutgoingMail, mime: Buffer, messageId: string): Promise<SubmittedMessage> {
  return {
    messageId,
    raw: await submittedMime(mime, messageId, mail.headers),
    envelope: envelopeOf(mail),
    disableFileAccess: true,
    disableUrlAccess: true,
    ...(mail.dkim && { dkim: { ...mail.dkim, headerFieldNames: SIGNED_HEADER_FIELDS } }),
  };
}

/**
 * toMimeMessage of a submitted message whose MIME comes as a stream (read back from storage):
 * nodemailer takes a raw stream as it is read, so the message is never whole in memory.
 */
export function toStreamedSubmittedMessage(
  mail: OutgoingMail,
  mime: Readable,
): Omit<SubmittedMessage, 'raw'> & { raw: Readable } {
  const messageId = messageIdOf(mail);
  return {
    messageId,
    raw: submittedMimeStream(mime, messageId, mail.headers),
    envelope: envelopeOf(mail),
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/** Our Message-ID: the message's id at the sender's domain. */
function messageIdOf(mail: OutgoingMail): string {
  const from = mimeAddress(mail.from);
  const fromAddress = typeof from === 'string' ? from : from.address;
  return `<${mail.id}@${fromAddress.slice(fromAddress.lastIndexOf('@') + 1)}>`;
}

/**
 * MAIL FROM and RCPT TO: a copy's one recipient, from its VERP address when there is one; else
 * the recipients a retry names (`envelopeTo`), or every recipient (Bcc included), from the From
 * address, as nodemailer would take them.
 */
export function envelopeOf(mail: OutgoingMail): { from: string; to: string[] } {
  const from = addressOf(mail.from);
  if (mail.copyFor) return { from: mail.copyFor.envelopeFrom ?? from, to: [mail.copyFor.address] };
  if (mail.envelopeTo) return { from, to: mail.envelopeTo.map(addressOf) };
  return { from, to: [...mail.to, ...mail.cc, ...mail.bcc].map(addressOf) };
}

/**
 * A bare address goes as the string it was accepted as (nodemailer keeps a quoted local part);
 * a mailbox with a display name in parts, so that nodemailer quotes or encodes the name
 * (RFC 2047 for non-ASCII) and the envelope gets the address alone.
 */
function mimeAddress(entry: string): MimeAddress {
  const mailbox = parseMailbox(entry);
  return mailbox && mailbox.name !== ''
    ? { name: mailbox.name, address: mailbox.address }
    : (mailbox?.address ?? entry);
}

/**
 * Text says it is UTF-8 when its bytes are: without a charset, readers assume US-ASCII (RFC 2046
 * §4.1.2) and show mojibake. Text in another encoding keeps no charset rather than a false one.
 */
function withCharset(contentType: string, content: Buffer): string {
  return contentType.startsWith('text/') && isUtf8(content) ? `${contentType}; charset=utf-8` : contentType;
}
