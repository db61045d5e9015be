import { compile } from 'html-to-text';
import type { OutgoingMail } from './mailer';

// Compiled once: compiling the selector tree on each call was a tenth of a worker's CPU.
const htmlToText = compile({ wordwrap: 78 });

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
    text: htmlToText(mail.html),
    attachments: mail.attachments.map((a) => ({ filename: a.fileName, contentType: a.contentType, content: a.content })),
    // Addresses and names were validated on acceptance; nodemailer must not re-read them as files or URLs.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}
