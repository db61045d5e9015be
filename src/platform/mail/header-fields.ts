import libmime from 'libmime';

/**
 * The largest header block of a received mail or of one of its parts, for mailparser's
 * `maxHeadSize` (the guard of every reader of received mail: bounce reports and inbound mail).
 * Real ones stay under a few KiB (the longest in the bounce corpus, Office 365's, under 15);
 * mailparser's header splitter slows down quadratically past ~100 KiB of folded lines (195 s on
 * a megabyte), so a longer block refuses the whole mail.
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** One group of RFC 822-style fields (a DSN's per-message or per-recipient group, a feedback report). */
export interface Fields {
  /** The first value of a field, by case-insensitive name; undefined when absent or empty. */
  first(name: string): string | undefined;
  /** Every value of a field, in order. */
  all(name: string): string[];
}

/**
 * The fields of a block, each field read by libmime (the header codec under mailparser). The
 * block is unfolded here (RFC 5322 §2.2.3: a line opening with white space continues the field
 * before it) because libmime's own decodeHeaders does it in quadratic time, which a report of
 * many continuation lines would turn into minutes.
 */
export function fieldsOf(block: string): Fields {
  const parsed = new Map<string, string[]>();
  for (const line of unfolded(block.replace(/^\s+/, ''))) {
    const { key, value } = decodedField(line);
    if (key === '' || value === '') continue;
    const values = parsed.get(key);
    if (values) values.push(value);
    else parsed.set(key, [value]);
  }
  const all = (name: string): string[] => parsed.get(name.toLowerCase()) ?? [];
  return { all, first: (name) => all(name)[0] };
}

/**
 * One field (its folded lines joined, as mailparser's `headerLines` keep them) read by libmime:
 * the lower-cased name and the unfolded value. A line at a time, never libmime's quadratic
 * decodeHeaders over a block.
 */
export function decodedField(line: string): { key: string; value: string } {
  return libmime.decodeHeader(line);
}

function unfolded(block: string): string[] {
  const fields: string[][] = [];
  for (const line of block.split(/\r?\n|\r/)) {
    if (/^[ \t]/.test(line) && fields.length > 0) fields[fields.length - 1].push(line);
    else fields.push([line]);
  }
  return fields.map((parts) => parts.join('\r\n'));
}

/**
 * The groups of a report body: RFC 3464 §2.1 and RFC 5965 §3 separate them by blank lines.
 */
export function fieldGroups(body: string): Fields[] {
  return body
    .split(/\r?\n[ \t]*\r?\n/)
    .filter((block) => block.trim() !== '')
    .map(fieldsOf);
}

/** The header section of a message (everything before the first blank line), as fields. */
export function headerFieldsOf(message: string): Fields {
  return fieldsOf(message.split(/\r?\n\r?\n/, 1)[0]);
}
