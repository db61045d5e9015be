import type { Readable } from 'node:stream';
import libmime from 'libmime';
import { simpleParser } from 'mailparser';
import { servableMediaType } from '../common/media-type';
import { isReservedHeaderName } from '../common/validation/custom-headers';
import { textAlternative } from '../mime/text-alternative';

/** What a message submitted over SMTP carries (SPEC §12), read from its MIME as received. */
export interface SubmittedContent {
  html: string | null;
  text: string;
  /** Its own header fields that a REST send could have given as `headers`, each name once (the first). */
  headers: Record<string, string>;
  attachments: { fileName: string | null; contentType: string; content: Buffer; contentId: string | null }[];
}

/**
 * The submitted MIME read back with mailparser, as delivery sends it: its HTML part (none for a
 * text-only mail), its text part as given, or derived from the HTML as a REST send's is, and
 * every attachment in the order of its parts, inline ones included, each with a type it can be
 * served with.
 */
export async function submittedContent(mime: Buffer | Readable): Promise<SubmittedContent> {
  const parsed = await simpleParser(mime, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
  });
  const html = typeof parsed.html === 'string' ? parsed.html : null;
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { key, line } of parsed.headerLines) {
    if (isReservedHeaderName(key) || seen.has(key)) continue;
    seen.add(key);
    // Defined, not assigned: a field named `__proto__` is a field like any other.
    Object.defineProperty(headers, line.slice(0, line.indexOf(':')).trim(), {
      value: libmime.decodeWords(libmime.decodeHeader(line).value),
      enumerable: true,
    });
  }
  return {
    html,
    text: parsed.text?.replace(/\n$/, '') ?? (html === null ? '' : textAlternative(html)),
    headers,
    attachments: parsed.attachments.map((a) => ({
      fileName: a.filename ?? null,
      // As received: a type with a control character would make the download's header invalid.
      contentType: servableMediaType(a.contentType),
      content: a.content,
      contentId: a.contentId?.replace(/^<|>$/g, '') ?? null,
    })),
  };
}
