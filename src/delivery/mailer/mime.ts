import { isUtf8 } from 'node:buffer';
import type { OutgoingMail } from './mailer';
import { textAlternative } from './text-alternative';

/** What nodemailer needs of a message, typed narrowly so that both nodemailer and @nestjs-modules/mailer take it. */
export interface MimeMessage {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  html: string;
  text: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
  disableFileAccess: true;
  disableUrlAccess: true;
}

/** The nodemailer message for one of ours: HTML with a plain-text alternative, and a Message-ID that carries our id. */
export function toMimeMessage(mail: OutgoingMail): MimeMessage {
  const domain = mail.from.slice(mail.from.lastIndexOf('@') + 1);
  return {
    messageId: `<${mail.id}@${domain}>`,
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    html: mail.html,
    text: textAlternative(mail.html),
    attachments: mail.attachments.map((a) => ({ filename: a.fileName, contentType: withCharset(a.contentType, a.content), content: a.content })),
    // Addresses and names were validated on acceptance; nodemailer must not re-read them as files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

/**
 * Text says it is UTF-8 when its bytes are: without a charset, readers assume US-ASCII (RFC 2046
 * §4.1.2) and show mojibake. Text in another encoding keeps no charset rather than a false one.
 */
function withCharset(contentType: string, content: Buffer): string {
  return contentType.startsWith('text/') && isUtf8(content) ? `${contentType}; charset=utf-8` : contentType;
}
