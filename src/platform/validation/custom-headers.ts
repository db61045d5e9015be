// docs/api.md#sending: the headers the service writes itself, or a relay or signer adds; a caller's copy
// would contradict them. Compared case-insensitively; the Content-* and List-Unsubscribe*
// families as prefixes.
const RESERVED_NAMES = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'dkim-signature',
  'return-path',
  'received',
]);
const RESERVED_PREFIXES = ['content-', 'list-unsubscribe'];
// RFC 5322 §2.2: a field name is printable US-ASCII (33–126) except the colon.
const FIELD_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
// A name cannot be folded: short enough that name and colon leave most of a 998-character line.
export const MAX_HEADER_NAME_LENGTH = 100;
// CR and LF would write headers of their own; the other controls (but tab) have no place in one.
// eslint-disable-next-line no-control-regex -- control characters are what this pattern exists to find
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;

export function isReservedHeaderName(name: string): boolean {
  const lower = name.toLowerCase();
  return RESERVED_NAMES.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** Why a custom header cannot be sent, or undefined when it can. */
export function customHeaderProblem(name: string, value: unknown, maxValueLength: number): string | undefined {
  if (name.length > MAX_HEADER_NAME_LENGTH || !FIELD_NAME.test(name))
    return `must be named with 1-${MAX_HEADER_NAME_LENGTH} printable ASCII characters other than the colon`;
  if (isReservedHeaderName(name)) return 'is a header the service writes itself';
  if (typeof value !== 'string') return 'must be a string';
  if (CONTROL.test(value)) return 'must not contain line breaks or control characters';
  // nodemailer leaves out a header with a blank value: refused, rather than accepted and not sent.
  if (!/\S/.test(value)) return 'must contain a character that is not white space';
  if (!atMostCharacters(value, maxValueLength)) return `must be at most ${maxValueLength} characters`;
  return undefined;
}

// RFC 6838 §4.2 restricted names, at most 127 characters each side of the slash; no parameters
// (the charset of text is ours to state, from the bytes).
const MIME_TYPE = /^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}\/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}$/;

// A part of these types must be made of parts (or be a whole message) of its own; an attachment's
// bytes given as one would go out unencoded, and a multipart boundary would enclose no parts.
const COMPOSITE = /^(multipart|message)\//i;

export const isMimeType = (value: unknown): value is string =>
  typeof value === 'string' && MIME_TYPE.test(value) && !COMPOSITE.test(value);

/** Code points, counted no further than `max`. */
function atMostCharacters(value: string, max: number): boolean {
  if (value.length <= max) return true;
  let characters = 0;
  for (const _ of value) if (++characters > max) return false;
  return true;
}
