import type { Readable, Transform } from 'node:stream';
import libmime from 'libmime';
import { MailParser } from 'mailparser';
import { servableMediaType } from './media-type';
import { isReservedHeaderName } from '../platform/validation/custom-headers';
import { textAlternative } from './mime/text-alternative';

/** Where one attachment's encoded body lies in the stored MIME, and how to decode it: read once, kept (docs/api.md#reading-back). */
export interface SubmittedPart {
  fileName: string | null;
  contentType: string;
  contentId: string | null;
  /** Decoded bytes. */
  size: number;
  /** Byte offsets of its body (as encoded) in the MIME: [start, end). */
  start: number;
  end: number;
  /** mailsplit's name of its transfer encoding: `base64`, `quoted-printable`, anything else passes through. */
  encoding: string | null;
}

/** What a message submitted over SMTP carries (docs/api.md#reading-back), read from its MIME as received. */
export interface SubmittedContent {
  html: string | null;
  text: string;
  /** Its own header fields that a REST send could have given as `headers`, each name once (the first). */
  headers: Record<string, string>;
  attachments: SubmittedPart[];
}

// mailsplit: the MIME splitter under mailparser; no typings ship with it. What the offsets need of its output.
interface SplitChunk {
  type: 'node' | 'data' | 'body';
  value?: Buffer;
  encoding?: string | false;
  getHeaders?: () => Buffer;
}
interface ParsedAttachment {
  filename?: string;
  contentType: string;
  contentId?: string;
  content: Readable;
  release: () => void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- no typings to import it with
const MimeNode = require('mailsplit/lib/mime-node') as new (parent: null) => {
  headers: unknown;
  encoding: string | null;
  getDecoder(): Transform;
};

/** A decoder of a part's body as mailparser decodes it (mailsplit's own, by the part's transfer encoding). */
export function decoderOf(encoding: string | null): Transform {
  const node = new MimeNode(null);
  node.headers = {};
  node.encoding = encoding;
  return node.getDecoder();
}

/**
 * mailparser, which also notes where each attachment's body lies in its input: mailsplit hands it
 * the MIME as consecutive pieces (a part's header block as received, boundary lines, body lines),
 * so their lengths summed are offsets into the MIME.
 */
class LocatingParser extends MailParser {
  readonly located: { start: number; end: number; encoding: string | null }[] = [];
  private offset = 0;
  private open: { start: number; end: number; encoding: string | null } | null = null;
  declare attachmentList: unknown[];

  processChunk(data: SplitChunk, done: (err?: Error) => void): void {
    if (data.type !== 'body' && this.open) {
      this.open.end = this.offset;
      this.open = null;
    }
    this.offset += data.type === 'node' ? data.getHeaders!().length : data.value!.length;
    const before = this.attachmentList.length;
    // @ts-expect-error -- processChunk is mailparser's, untyped in @types/mailparser
    // eslint-disable-next-line @typescript-eslint/no-unsafe-call
    super.processChunk(data, done);
    if (this.attachmentList.length > before) {
      this.open = { start: this.offset, end: this.offset, encoding: data.encoding || null };
      this.located.push(this.open);
    }
  }

  /** The end of input closes the last part. */
  closeLast(): void {
    if (this.open) this.open.end = this.offset;
  }
}

/**
 * The submitted MIME read back with mailparser, as delivery sends it: its HTML part (none for a
 * text-only mail), its text part as given, or derived from the HTML as a REST send's is, and
 * every attachment in the order of its parts, inline ones included, each with a type it can be
 * served with and where its body lies, counted (not kept) as it is decoded.
 */
export async function submittedContent(mime: Readable): Promise<SubmittedContent> {
  const parser = new LocatingParser({
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipImageLinks: true,
    skipTextLinks: true,
  });
  let html: string | null = null;
  let text: string | undefined;
  const found: { attachment: ParsedAttachment; size: number }[] = [];
  await new Promise<void>((resolve, reject) => {
    parser.on('error', reject);
    mime.on('error', reject);
    parser.on('data', (data: { type: string; html?: unknown; text?: string } & ParsedAttachment) => {
      if (data.type === 'text') {
        // As simpleParser takes them: each key the text event carries.
        if ('html' in data) html = typeof data.html === 'string' ? data.html : null;
        if ('text' in data) text = data.text;
        return;
      }
      const entry = { attachment: data, size: 0 };
      found.push(entry);
      data.content.on('data', (chunk: Buffer) => (entry.size += chunk.length));
      data.content.on('end', () => data.release());
    });
    parser.on('end', resolve);
    mime.pipe(parser);
  });
  parser.closeLast();
  const headerLines = (parser as unknown as { headerLines: { key: string; line: string }[] }).headerLines ?? [];
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { key, line } of headerLines) {
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
    text: text?.replace(/\n$/, '') ?? (html === null ? '' : textAlternative(html)),
    headers,
    attachments: found.map(({ attachment: a, size }, i) => ({
      fileName: a.filename ?? null,
      // As received: a type with a control character would make the download's header invalid.
      contentType: servableMediaType(a.contentType),
      contentId: a.contentId?.replace(/^<|>$/g, '') ?? null,
      size,
      ...parser.located[i],
    })),
  };
}
