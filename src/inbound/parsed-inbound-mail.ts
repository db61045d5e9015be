import { validateHeaderValue } from 'node:http';
import type { Readable } from 'node:stream';
import { AddressObject, EmailAddress, simpleParser } from 'mailparser';
import libmime from 'libmime';
import { extension } from 'mime-types';
import { addressKey } from '../platform/mail/addresses';
import { decodedField } from '../platform/mail/header-fields';
import type { InboundHeader } from './entities/inbound-mail.entity';
import type { InboundMailLimits } from './inbound-mail-limits';

/** What mailparser reads from a received mail (docs/inbound.md), ready to store. */
export interface ParsedInboundMail {
  /** The From header's first mailbox, written as docs/api.md#sending writes them (`Cara <cara@example.org>`). */
  fromMailbox: string | null;
  fromAddress: string | null;
  to: string[];
  cc: string[];
  /** The addressKeys of To and Cc. */
  headerRecipients: string[];
  subject: string | null;
  messageId: string | null;
  /** The Message-IDs that In-Reply-To and References name, In-Reply-To's first. */
  answers: string[];
  text: string | null;
  html: string | null;
  headers: InboundHeader[];
  attachments: { fileName: string; contentType: string; size: number; content: Buffer }[];
}

/**
 * Reads a mail with mailparser, guarded as the bounce reader guards it (the header block of the
 * mail and of each part at most `headerBytes`, so its header splitter stays linear), after
 * structureRefusal has passed its tree. Attached messages stay attachments (ignoreEmbedded), the
 * HTML is kept as sent (no cid: images turned into data: URLs, no text made into HTML or HTML
 * into text). PostgreSQL text holds no NUL: one in a read value becomes U+FFFD (the raw MIME
 * keeps every byte).
 */
export async function parseInboundMail(mail: Readable, limits: InboundMailLimits): Promise<ParsedInboundMail> {
  const parsed = await simpleParser(mail, {
    ignoreEmbedded: true,
    maxHeadSize: limits.headerBytes,
    maxChildNodes: limits.mimeParts,
    skipHtmlToText: true,
    skipImageLinks: true,
    skipTextLinks: true,
    skipTextToHtml: true,
  } as Parameters<typeof simpleParser>[1]);
  const from = mailboxesOf(parsed.from)[0];
  const to = mailboxesOf(parsed.to);
  const cc = mailboxesOf(parsed.cc);
  const references = typeof parsed.references === 'string' ? [parsed.references] : (parsed.references ?? []);
  return {
    fromMailbox: from ? written(from) : null,
    fromAddress: from ? addressKey(clean(from.address!)) : null,
    to: to.map(written),
    cc: cc.map(written),
    headerRecipients: [...to, ...cc].map((mailbox) => addressKey(clean(mailbox.address!))),
    subject: parsed.subject === undefined ? null : clean(parsed.subject),
    messageId: parsed.messageId ? clean(parsed.messageId) : null,
    answers: [parsed.inReplyTo ?? '', ...references].flatMap((ids) => ids.split(/\s+/)).filter((id) => id !== ''),
    text: typeof parsed.text === 'string' ? clean(parsed.text) : null,
    html: typeof parsed.html === 'string' ? clean(parsed.html) : null,
    headers: parsed.headerLines.map(({ line }) => headerOf(line)),
    attachments: parsed.attachments.map((attachment, index) => ({
      fileName: clean(attachment.filename || `attachment-${index}.${extension(attachment.contentType) || 'bin'}`),
      contentType: servableType(attachment.contentType),
      size: attachment.content.length,
      content: attachment.content,
    })),
  };
}

/** A field's name as written and its value unfolded, encoded words decoded. */
function headerOf(line: string): InboundHeader {
  const colon = line.indexOf(':');
  const name = colon < 0 ? line : line.slice(0, colon).trim();
  return { name: clean(name), value: clean(libmime.decodeWords(decodedField(line).value)) };
}

function mailboxesOf(field: AddressObject | AddressObject[] | undefined): EmailAddress[] {
  const entries = (Array.isArray(field) ? field : field ? [field] : []).flatMap((object) => object.value);
  // A group's members stand for it (RFC 5322 §3.4).
  return entries.flatMap((entry) => entry.group ?? [entry]).filter((entry) => !!entry.address);
}

// Phrase characters that need no quotes (RFC 5322 atext, spaces and dots, as obs-phrase allows).
const PLAIN_NAME = /^[\p{L}\p{N}!#$%&'*+\-/=?^_`{|}~. ]*$/u;

/** `Name <address>`, the name quoted when it holds a special; the bare address without a name. */
function written(mailbox: EmailAddress): string {
  const address = clean(mailbox.address!);
  const name = clean(mailbox.name ?? '').trim();
  if (!name) return address;
  return `${PLAIN_NAME.test(name) ? name : `"${name.replace(/["\\]/g, '\\$&')}"`} <${address}>`;
}

const clean = (value: string): string => value.replace(/\0/g, '\ufffd');

/** The type as stored and served again in Content-Type: one no header may carry is kept as bytes. */
function servableType(contentType: string): string {
  try {
    validateHeaderValue('Content-Type', contentType);
    return contentType || 'application/octet-stream';
  } catch {
    return 'application/octet-stream';
  }
}
