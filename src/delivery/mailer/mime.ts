import { isUtf8 } from 'node:buffer';
import { parseMailbox } from '../../common/validation/mailbox';
import type { OutgoingMail } from './mailer';
import { textAlternative } from './text-alternative';

/** An address as nodemailer takes it: a bare one as the string, a named one in parts for nodemailer to encode. */
export type MimeAddress = string | { name: string; address: string };

/** What nodemailer needs of a message, typed narrowly so that both nodemailer and @nestjs-modules/mailer take it. */
export interface MimeMessage {
  messageId: string;
  from: MimeAddress;
  to: MimeAddress[];
  cc: MimeAddress[];
  /** nodemailer puts these in the envelope and, not being told to keep them, in no header. */
  bcc: MimeAddress[];
  replyTo: MimeAddress[];
  subject: string;
  html: string;
  text: string;
  headers: { key: string; value: string }[];
  attachments: { filename: string; contentType: string; content: Buffer }[];
  disableFileAccess: true;
  disableUrlAccess: true;
}

/**
 * The nodemailer message for one of ours: HTML with a plain-text alternative (the one given, or
 * one derived from the HTML), and a Message-ID that carries our id.
 */
export function toMimeMessage(mail: OutgoingMail): MimeMessage {
  const from = mimeAddress(mail.from);
  const fromAddress = typeof from === 'string' ? from : from.address;
  return {
    messageId: `<${mail.id}@${fromAddress.slice(fromAddress.lastIndexOf('@') + 1)}>`,
    from,
    to: mail.to.map(mimeAddress),
    cc: mail.cc.map(mimeAddress),
    bcc: mail.bcc.map(mimeAddress),
    replyTo: mail.replyTo.map(mimeAddress),
    subject: mail.subject,
    html: mail.html,
    text: mail.text ?? textAlternative(mail.html),
    // A list, not an object: a header named like one of Object.prototype's keys stays a header.
    headers: Object.entries(mail.headers).map(([key, value]) => ({ key, value })),
    attachments: mail.attachments.map((a) => ({ filename: a.fileName, contentType: withCharset(a.contentType, a.content), content: a.content })),
    // Addresses and names were validated on acceptance; nodemailer must not re-read them as files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/**
 * A bare address goes as the string it was accepted as (nodemailer keeps a quoted local part);
 * a mailbox with a display name in parts, so that nodemailer quotes or encodes the name
 * (RFC 2047 for non-ASCII) and the envelope gets the address alone.
 */
function mimeAddress(entry: string): MimeAddress {
  const mailbox = parseMailbox(entry);
  return mailbox && mailbox.name !== '' ? { name: mailbox.name, address: mailbox.address } : (mailbox?.address ?? entry);
}

/**
 * Text says it is UTF-8 when its bytes are: without a charset, readers assume US-ASCII (RFC 2046
 * §4.1.2) and show mojibake. Text in another encoding keeps no charset rather than a false one.
 */
function withCharset(contentType: string, content: Buffer): string {
  return contentType.startsWith('text/') && isUtf8(content) ? `${contentType}; charset=utf-8` : contentType;
}
