import { simpleParser } from 'mailparser';
import libmime from 'libmime';
import { Fields, fieldsOf, headerFieldsOf, MAX_HEADER_BYTES } from '../../../platform/mail/header-fields';

/** The parts of a received report the readers look at. */
export interface ReportMail {
  /** A top-level header's first value, unfolded, encoded words decoded; undefined when absent. */
  header(name: string): string | undefined;
  /** The address in From, lower-cased. */
  from?: string;
  /**
   * The human-readable text (text/plain, or text/html made text), without attached messages;
   * for a multipart whose parts cannot be found (no boundary lines), its raw body.
   */
  text: string;
  /** The decoded bodies of the machine-readable parts of the given MIME types, in order. */
  parts(...contentTypes: string[]): string[];
  /** The header fields of the returned original message (message/rfc822 or text/rfc822-headers), when attached. */
  original?: Fields;
  /** The returned original message whole (message/rfc822 or message/global), when attached: it may itself be a report. */
  returned?: Buffer;
}

// The returned message, whole (RFC 3462 §2, RFC 6532) or as headers only (RFC 3462 §3).
const WHOLE_MESSAGE_TYPES = ['message/rfc822', 'message/global'];
const ORIGINAL_MESSAGE_TYPES = [...WHOLE_MESSAGE_TYPES, 'text/rfc822-headers', 'message/global-headers'];

/**
 * Parses the report with mailparser. The delivery-status part is kept as a part of its own
 * (keepDeliveryStatus) and attached messages are not merged into the text (ignoreEmbedded), so
 * that a quoted original cannot be taken for the server's words.
 */
export async function parseReportMail(raw: Buffer): Promise<ReportMail> {
  const mail = await simpleParser(raw, {
    keepDeliveryStatus: true,
    ignoreEmbedded: true,
    maxHeadSize: MAX_HEADER_BYTES,
    skipImageLinks: true,
    skipTextLinks: true,
    skipTextToHtml: true,
  } as Parameters<typeof simpleParser>[1]);
  const attachments = mail.attachments.map((part) => ({
    contentType: part.contentType.toLowerCase(),
    content: part.content,
    body: part.content.toString('utf8'),
  }));
  const parts = (...contentTypes: string[]): string[] =>
    attachments.filter((part) => contentTypes.includes(part.contentType)).map((part) => part.body);
  const original = parts(...ORIGINAL_MESSAGE_TYPES)[0];
  const headers = fieldsOf(mail.headerLines.map((header) => header.line).join('\r\n'));
  return {
    header: (name) => {
      const value = headers.first(name);
      return value === undefined ? undefined : libmime.decodeWords(value);
    },
    from: mail.from?.value[0]?.address?.toLowerCase(),
    text: mail.text || (attachments.length === 0 ? bodyOf(raw) : ''),
    parts,
    original: original === undefined ? undefined : headerFieldsOf(original),
    returned: attachments.find((part) => WHOLE_MESSAGE_TYPES.includes(part.contentType))?.content,
  };
}

/** The body of a message whose MIME structure failed: everything after the header section. */
function bodyOf(raw: Buffer): string {
  const text = raw.toString('latin1');
  const match = /\r?\n\r?\n/.exec(text);
  return match ? text.slice(match.index + match[0].length) : '';
}
