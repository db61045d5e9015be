import { ValidateIf, ValidationOptions, registerDecorator } from 'class-validator';
import { customHeaderProblem, isMimeType } from './custom-headers';
import { isEmailAddress } from './email-address';
import { isMailbox } from './mailbox';

/**
 * Small validation rules that class-validator lacks, each one a decorator. Messages are written
 * for the `message` of a problem's `errors[]`, where the field is already named.
 */
function rule(
  name: string,
  test: (value: unknown, object: object) => boolean,
  message: string,
  options?: ValidationOptions,
) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: { message, ...options },
      validator: { validate: (value, args) => test(value, args!.object) },
    });
}

export const IsEmailAddress = (options?: ValidationOptions) =>
  rule('isEmailAddress', isEmailAddress, 'must be an email address (name@example.com)', options);

/**
 * docs/api.md#sending: a subject needs a character that is not white space (a blank one is sent without a
 * Subject header). An empty string is the length rule's to refuse, not this one's too.
 */
export const IsNotBlank = (options?: ValidationOptions) =>
  rule(
    'isNotBlank',
    (v) => typeof v === 'string' && (v === '' || /\S/.test(v)),
    'must contain a character that is not white space',
    options,
  );

/**
 * Required unless `other` is given (docs/api.md#sending: `html` or `text`). The pipe reports a missing value
 * with this rule's message rather than a bare "is required", so that the caller learns of both.
 */
export const IsRequiredWithout = (other: string, options?: ValidationOptions) =>
  rule(
    'isRequiredWithout',
    (v, object) => v != null || (object as Record<string, unknown>)[other] != null,
    `is required when ${other} is absent (give either or both)`,
    options,
  );

/** CR or LF in anything that becomes a mail header would let a caller write headers of its own. */
export const HasNoLineBreaks = (options?: ValidationOptions) =>
  rule('hasNoLineBreaks', (v) => typeof v === 'string' && !/[\r\n]/.test(v), 'must not contain line breaks', options);

export const MaxUtf8Bytes = (max: number, options?: ValidationOptions) =>
  rule(
    'maxUtf8Bytes',
    (v) => typeof v === 'string' && Buffer.byteLength(v, 'utf8') <= max,
    `must be at most ${max} bytes`,
    options,
  );

const BASE64_ALPHABET = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')
  BASE64_ALPHABET[c.charCodeAt(0)] = 1;

/**
 * Padded standard base64 (RFC 4648 §4), checked by a loop over the characters: V8's regex engine
 * ran out of stack on 13 MiB strings, with a repeated group (at 3.35 MB decoded) and, now and then,
 * with a single character class too (validator.js's isBase64).
 */
export function isStandardBase64(value: string): boolean {
  if (value.length % 4 !== 0) return false;
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  for (let i = 0; i < value.length - padding; i++) {
    if (BASE64_ALPHABET[value.charCodeAt(i)] !== 1) return false;
  }
  return true;
}

export const IsStandardBase64 = (options?: ValidationOptions) =>
  rule(
    'isStandardBase64',
    (v) => typeof v === 'string' && isStandardBase64(v),
    'must be standard base64 (RFC 4648 §4, padded)',
    options,
  );

/**
 * 1 to `max` characters (code points), counted no further than `max`: a 20 MiB string costs no
 * more than a short one (class-validator's Length builds an array of every surrogate pair).
 */
export function hasLength(value: unknown, min: number, max: number): value is string {
  if (typeof value !== 'string' || value.length < min) return false;
  let characters = 0;
  for (const _ of value) if (++characters > max) return false;
  return characters >= min;
}

export const TextLength = (min: number, max: number, options?: ValidationOptions) =>
  rule('textLength', (v) => hasLength(v, min, max), `must be ${min} to ${max} characters`, options);

/** A file name that cannot name a path or break out of a MIME header. */
export function isSafeFileName(value: unknown): value is string {
  return typeof value === 'string' && !/[/\\\r\n\0]/.test(value);
}

export const IsSafeFileName = (options?: ValidationOptions) =>
  rule('isSafeFileName', isSafeFileName, 'must not contain /, \\, CR, LF or NUL', options);

export interface StringRecordLimits {
  maxKeys: number;
  maxKeyLength: number;
  maxValueLength: number;
}

export function isStringRecord(value: unknown, limits: StringRecordLimits): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    entries.length <= limits.maxKeys &&
    entries.every(([key, v]) => hasLength(key, 1, limits.maxKeyLength) && hasLength(v, 0, limits.maxValueLength))
  );
}

export const IsStringRecord = (limits: StringRecordLimits, options?: ValidationOptions) =>
  rule(
    'isStringRecord',
    (v) => isStringRecord(v, limits),
    `must be an object of at most ${limits.maxKeys} keys of 1-${limits.maxKeyLength} characters, each value a string of at most ${limits.maxValueLength} characters`,
    options,
  );

/** For ranges: this value must not come before the value of another property (when both are valid). */
export const IsNotBefore = (property: string, options?: ValidationOptions) =>
  rule(
    'isNotBefore',
    (v, object) => {
      const other = (object as Record<string, unknown>)[property];
      return !(v instanceof Date && other instanceof Date) || v.getTime() >= other.getTime();
    },
    `must not be before ${property}`,
    options,
  );

export const IsMailbox = (options?: ValidationOptions) =>
  rule(
    'isMailbox',
    isMailbox,
    'must be an email address (name@example.com) or a mailbox (Ada Lovelace <ada@example.com>)',
    options,
  );

// Marks the entries a rule names in its message, for toFieldErrors to turn into fields of their
// own (`cc[2]`, `headers.X-Foo`): class-validator names only the property.
const ENTRY = '\u001f';

/** The `{path, message}` pairs an entries rule wrote into its message; undefined for other messages. */
export function entryMessages(message: string): { path: string; message: string }[] | undefined {
  if (!message.startsWith(ENTRY)) return undefined;
  const parts = message.split(ENTRY).slice(1);
  return Array.from({ length: parts.length / 2 }, (_, i) => ({ path: parts[2 * i], message: parts[2 * i + 1] }));
}

/** A rule over a whole value that reports each failing entry under its own path ('' for the value itself). */
function entriesRule(
  name: string,
  failures: (value: unknown) => [path: string, message: string][],
  options?: ValidationOptions,
) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName,
      options: {
        ...options,
        message: ({ value }) =>
          failures(value)
            .map(([path, m]) => `${ENTRY}${path}${ENTRY}${m}`)
            .join(''),
      },
      validator: { validate: (value) => failures(value).length === 0 },
    });
}

/** Every entry of an array is an address or a mailbox; each one that is not is named (`cc[2]`). */
export const EachMailbox = (options?: ValidationOptions) =>
  entriesRule(
    'eachMailbox',
    (v) =>
      Array.isArray(v)
        ? v.flatMap((entry, i) =>
            isMailbox(entry)
              ? []
              : [
                  [
                    `[${i}]`,
                    'must be an email address (name@example.com) or a mailbox (Ada Lovelace <ada@example.com>)',
                  ] as [string, string],
                ],
          )
        : [],
    options,
  );

export interface HeaderLimits {
  maxHeaders: number;
  maxValueLength: number;
}

/** Custom headers (docs/api.md#sending): each failing one is named (`headers.X-Foo`). */
export const IsCustomHeaders = (limits: HeaderLimits, options?: ValidationOptions) =>
  entriesRule(
    'isCustomHeaders',
    (v) => {
      if (typeof v !== 'object' || v === null || Array.isArray(v))
        return [['', 'must be an object of header names to string values']];
      const entries = Object.entries(v);
      if (entries.length > limits.maxHeaders) return [['', `must have at most ${limits.maxHeaders} headers`]];
      return entries.flatMap(([name, value]): [string, string][] => {
        const problem = customHeaderProblem(name, value, limits.maxValueLength);
        // The separator of entries (a control character, refused in header names anyway) is shown escaped.
        return problem ? [[`.${name.replaceAll(ENTRY, '\\u001f')}`, problem]] : [];
      });
    },
    options,
  );

/**
 * A Content-ID as docs/api.md#sending allows it: letters, digits and `.-_@` (the length is TextLength's). No
 * angle brackets, spaces or quotes, so it goes into `Content-ID: <…>` and a `cid:` URL as it is.
 */
export function isContentId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9._@-]*$/.test(value);
}

export const IsContentId = (options?: ValidationOptions) =>
  rule('isContentId', isContentId, 'must contain only letters, digits and . - _ @', options);

/**
 * No two attachments of a message share a contentId, compared case-insensitively: a `cid:`
 * reference would name either, and mail readers differ on letter case. Each repeat is named.
 */
export const HasDistinctContentIds = (options?: ValidationOptions) =>
  entriesRule(
    'hasDistinctContentIds',
    (v) => {
      if (!Array.isArray(v)) return [];
      const first = new Map<string, number>();
      return v.flatMap((attachment: unknown, i): [string, string][] => {
        const id = (attachment as { contentId?: unknown } | null)?.contentId;
        if (typeof id !== 'string') return [];
        const earlier = first.get(id.toLowerCase());
        if (earlier === undefined) first.set(id.toLowerCase(), i);
        return earlier === undefined ? [] : [[`[${i}].contentId`, `repeats attachments[${earlier}].contentId`]];
      });
    },
    options,
  );

export const IsMimeType = (options?: ValidationOptions) =>
  rule(
    'isMimeType',
    isMimeType,
    'must be the MIME type of a single part (type/subtype, such as application/pdf; not multipart/* or message/*)',
    options,
  );

/**
 * Optional, yet not nullable: a field that may be left out but whose null is refused like any
 * other wrong value (IsOptional would let null through to a NOT NULL column).
 */
export const IsOmittable = () => ValidateIf((_object: object, value: unknown) => value !== undefined);
