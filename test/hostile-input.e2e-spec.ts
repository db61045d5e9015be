import { parse as parseQueryString } from 'node:querystring';
import fc from 'fast-check';
import type { Response } from 'supertest';
import { MESSAGE_PRIORITIES, MESSAGE_STATUSES } from '../src/messages/message-status';
import type { MessageStatus } from '../src/messages/message-status';
import { rowsOwnedBy, storeMessage } from './support/factories';
import { bootTestApp, TestApp } from './support/test-app';
import { bearer, newUserId } from './support/tokens';

/*
 * Property-based fuzzing of the two endpoints that take the most input (SPEC §3, §4, §6).
 * Whatever arrives, the answer is never a 5xx, every refusal is a well-formed problem, a 400
 * names the failing fields, and a refused send writes nothing. Where a generator knows what
 * it built (a valid body, a body with one field broken on purpose, a query whose every value
 * is known to be good or bad), the exact outcome is checked too.
 *
 * A failure prints fast-check's seed and path; replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */

const REQUIRED_RUNS = 2000;
const SEND_RUNS = 2000;
const LIST_RUNS = 2000;

// Small limits, so that "too many recipients" and "attachments too large" are cheap to reach.
const MAX_RECIPIENTS = 5;
const MAX_ATTACHMENT_BYTES = 2048;

const replay = {
  ...(process.env.FUZZ_SEED && { seed: Number(process.env.FUZZ_SEED) }),
  ...(process.env.FUZZ_PATH && { path: process.env.FUZZ_PATH }),
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC_MILLIS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];
const SEND_FIELDS = ['subject', 'html', 'to', 'sender', 'attachments', 'attachmentIds', 'bulkSendingId', 'contactId', 'customPayload', 'priority', 'webhook'];
const REQUIRED_SEND_FIELDS = ['subject', 'html', 'to', 'sender'];
const QUERY_FIELDS = ['take', 'page', 'includeStatusHistory', 'startDate', 'endDate', 'fromEmail', 'toEmail', 'statuses', 'bulkSending'];

// ---------------------------------------------------------------------------------------------
// JSON text. Bodies are written as text, not built as objects: an object literal turns a
// `__proto__` key into the prototype (and JSON.stringify then drops it), and text also lets a
// body repeat a key or be malformed.

type Entry = readonly [key: string, valueText: string];
const json = (value: unknown): string => JSON.stringify(value);
const jsonObject = (entries: readonly Entry[], separator = ','): string => `{${entries.map(([key, value]) => `${json(key)}:${value}`).join(separator)}}`;
const jsonArray = (items: readonly string[]): string => `[${items.join(',')}]`;

/** The same object with every non-ASCII code unit escaped (`\u00e9`), which must parse identically. */
const asciiEscaped = (text: string): string =>
  text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// ---------------------------------------------------------------------------------------------
// Strings that break naive code.

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** What UTF-8 makes of a string: a lone surrogate cannot be encoded and becomes U+FFFD. */
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\ufffd');

/** One "character" of any kind: any code point (astral too), a multi-code-point grapheme, a lone surrogate, a control. */
const hostileChar = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom('\u0301', '\u202e', '\u200d', '\ufeff', '\u2028', '\r', '\n', '\t', '\u0000', '\u001b') },
);

const TRICKY_STRINGS = [
  '', ' ', '   ', '\u202eevil\u202c', 'مرحبا بالعالم', 'שלום עולם', 'e\u0301\u0301\u0301\u0301', 'Z\u0338\u0321\u0322\u034e\u0344a\u0335',
  '👩‍👩‍👧‍👦', '𝕳𝖊𝖑𝖑𝖔', '\ud83d', '\ude00', 'a\udc00b', '\ufeff', '\u200b\u200d', 'İ', 'ß', 'ﬃ', '\u2028\u2029',
  '\u0007\u001b[31m', '${7*7}', '{{7*7}}', "'; DROP TABLE messages; --", '<script>alert(1)</script>',
  '../../etc/passwd', 'null', 'undefined', 'true', '0', '-1', 'NaN', 'Infinity', '%00', '\\u0000', '\u0000', 'a\r\nBcc: x@example.com',
];

// Built once: fast-check would otherwise spend its time generating megabytes character by character.
const HUGE_STRINGS = ['x'.repeat(65_536), 'é'.repeat(100_000), '𝕏'.repeat(50_000), 'x'.repeat(5 * 1024 * 1024 + 1)];

/** Short strings of hostile characters, known troublemakers, and now and then a huge one. */
const hostileString = fc.oneof(
  { weight: 20, arbitrary: fc.string({ unit: hostileChar, maxLength: 24 }) },
  { weight: 10, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
  { weight: 3, arbitrary: fc.nat({ max: 3000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE_STRINGS) },
);

/** The same without the huge ones: a URL of megabytes is refused by Node's HTTP parser before the app sees it. */
const hostileQueryString = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: hostileChar, maxLength: 24 }) },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
  { weight: 1, arbitrary: fc.nat({ max: 3000 }).map((n) => 'x'.repeat(n)) },
);

/**
 * 1 to `maxLength` printable graphemes (any script, astral ones, combining marks) without NUL,
 * CR or LF. Kept within `maxUnits` UTF-16 code units, and never made of variation selectors
 * alone, so that its length is within limits by every way of counting characters. No lone
 * surrogates: whether those are refused or replaced is left open by the spec.
 */
const printableText = (maxLength: number, maxUnits = Infinity) =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength })
    .filter((s) => !/[\0\r\n]/.test(s) && s.length <= maxUnits && /[^\ufe0e\ufe0f]/.test(s));

// ---------------------------------------------------------------------------------------------
// Junk JSON values, as text.

const JUNK_SCALARS = ['null', 'true', 'false', '0', '-0', '-1', '1.5', '1e400', '-1e-400', '123456789012345678901234567890', '[]', '{}'];

/** Nested junk: scalars, hostile strings, arrays and objects whose keys may be reserved names. */
const junkKey = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: hostileChar, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...SEND_FIELDS, 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'a.b', 'a[0]', '') },
  { weight: 1, arbitrary: fc.constantFrom(...RESERVED_KEYS) },
);
const { junkValue } = fc.letrec<{ junkValue: string }>((tie) => ({
  junkValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.constantFrom(...JUNK_SCALARS), fc.double({ noNaN: true, noDefaultInfinity: true }).map(json), hostileString.map(json)),
    fc.array(tie('junkValue'), { maxLength: 4 }).map(jsonArray),
    fc.array(fc.tuple(junkKey, tie('junkValue')), { maxLength: 4 }).map(jsonObject),
  ),
}));

/** Arrays nested up to 40 deep (the limit is 32) and one array of 10,001 values (the limit is 10,000). */
const deepOrWideValue = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 40 }).map((depth) => '{"a":'.repeat(depth) + '0' + '}'.repeat(depth)),
  fc.constant(`[${'0,'.repeat(10_000)}0]`),
);
const anyJunkValue = fc.oneof({ weight: 9, arbitrary: junkValue }, { weight: 1, arbitrary: deepOrWideValue });

// ---------------------------------------------------------------------------------------------
// Email addresses.

const asciiAddress = fc
  .tuple(fc.stringMatching(/^[a-z0-9_+-]{1,12}(\.[a-z0-9_+-]{1,8})?$/), fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,5})?\.(com|org|io|example)$/))
  .map(([local, domain]) => `${local}@${domain}`);
const UNICODE_ADDRESSES = ['İ@example.com', 'i@example.com', 'josé@example.com', 'ünïcödé@bücher.de', 'Ωμέγα@example.gr'];
/** Addresses that are valid by any reading, in mixed letter case, some beyond ASCII. */
const validAddress = fc.oneof({ weight: 6, arbitrary: fc.mixedCase(asciiAddress) }, { weight: 1, arbitrary: fc.constantFrom(...UNICODE_ADDRESSES) });

/** Address-shaped text with hostile characters (a lone surrogate among them) on either side of the @. */
const hostileAddress = fc
  .tuple(fc.string({ unit: hostileChar, minLength: 1, maxLength: 8 }), fc.constantFrom('example.com', 'bücher.de'), fc.boolean())
  .map(([text, domain, inLocalPart]) => (inLocalPart ? `${text}@${domain}` : `ada@${text}.${domain}`));

/** Addresses that no reading accepts (the last is over the 254 characters of RFC 5321). */
const INVALID_ADDRESSES = [
  '', 'billing', 'a@b', '@example.com', 'ada@', 'a@@example.com', 'a b@example.com', 'Billing <billing@example.com>',
  'a@example..com', '.a@example.com', 'a.@example.com', 'a@example.com\r\nBcc: x@example.com', `${'x'.repeat(250)}@example.com`,
];

// ---------------------------------------------------------------------------------------------
// POST /sender/send: what a case is and how it is checked.

interface SendExpectation {
  status: 201 | 400 | 413;
  /** For 400: fields of which at least one must be named in `errors`. */
  fields?: string[];
}

interface SendCase {
  family: string;
  raw: string;
  expect?: SendExpectation;
}

/** Counterexamples print with long runs of one character collapsed, so that a 5 MiB body stays readable. */
const shortened = (text: string) => text.replace(/(.)\1{19,}/gsu, (run, c: string) => `${c.repeat(3)}…(${c} × ${[...run].length})…`);
const sendCaseOf = (value: SendCase): SendCase =>
  Object.assign(value, { [fc.toStringMethod]: () => `${value.family} ${JSON.stringify(shortened(value.raw))} expect ${JSON.stringify(value.expect ?? 'no 5xx')}` });

const webhookUrl = fc
  .tuple(fc.constantFrom('https://hooks.example.com', 'http://example.org:8080', 'https://xn--bcher-kva.example'), fc.stringMatching(/^(\/[a-z0-9._~-]{0,12}){0,3}$/))
  .map(([origin, path]) => origin + path);

const inlineAttachment = fc.record({
  fileName: printableText(40, 255).filter((name) => !/[/\\]/.test(name)),
  content: fc.uint8Array({ maxLength: 600 }).map((bytes) => Buffer.from(bytes).toString('base64')),
});

/** customPayload keys: any printable text but the reserved names. */
const payloadKey = printableText(20, 100).filter((key) => !RESERVED_KEYS.includes(key));

/** A body every reading of SPEC §4 accepts: the four required fields, any of the optional ones. */
const validSendBody = fc.record(
  {
    subject: fc.oneof({ weight: 30, arbitrary: printableText(60) }, { weight: 1, arbitrary: fc.constant('s'.repeat(998)) }),
    html: fc.oneof(
      { weight: 150, arbitrary: printableText(200) },
      { weight: 30, arbitrary: printableText(40).map((text) => `<p dir="rtl">${text}</p>`) },
      // Exactly 5 MiB, the largest html allowed (rare: each one costs tens of milliseconds).
      { weight: 1, arbitrary: fc.constant('h'.repeat(5 * 1024 * 1024)) },
    ),
    to: fc.array(validAddress, { minLength: 1, maxLength: MAX_RECIPIENTS }),
    sender: validAddress,
    priority: fc.constantFrom(...MESSAGE_PRIORITIES),
    bulkSendingId: printableText(40, 255),
    contactId: fc.oneof(printableText(40, 255), fc.constant('c'.repeat(255))),
    customPayload: fc
      .uniqueArray(fc.tuple(payloadKey, fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), printableText(30, 1000), fc.constant('v'.repeat(1000)))), {
        selector: ([key]) => key,
        maxLength: 6,
      })
      .map((entries) => Object.fromEntries(entries)),
    webhook: fc.record({ url: webhookUrl, status: fc.subarray([...MESSAGE_STATUSES]) }, { requiredKeys: ['url'] }),
    attachments: fc.array(inlineAttachment, { maxLength: 3 }),
  },
  { requiredKeys: ['subject', 'html', 'to', 'sender'] },
);

/** Writes a valid body the ways a client might: compact, indented, or with every non-ASCII character escaped. */
const renderValid = (body: object, style: 'compact' | 'indented' | 'escaped'): string =>
  style === 'indented' ? JSON.stringify(body, null, '\t') : style === 'escaped' ? asciiEscaped(json(body)) : json(body);

const validSendCase: fc.Arbitrary<SendCase> = fc
  .tuple(validSendBody, fc.constantFrom('compact', 'indented', 'escaped'))
  .map(([body, style]) => sendCaseOf({ family: 'valid', raw: renderValid(body, style), expect: { status: 201 } }));

/** Attachments that decode to more than MAX_ATTACHMENT_BYTES, on an otherwise valid body: 413. */
const oversizeAttachmentsCase: fc.Arbitrary<SendCase> = fc
  .tuple(validSendBody, fc.integer({ min: MAX_ATTACHMENT_BYTES + 1, max: MAX_ATTACHMENT_BYTES * 3 }))
  .map(([body, bytes]) => {
    const half = Buffer.alloc(Math.ceil(bytes / 2), 7).toString('base64');
    const attachments = [{ fileName: 'a.bin', content: half }, { fileName: 'b.bin', content: half }];
    return sendCaseOf({ family: 'oversize attachments', raw: json({ ...body, attachments }), expect: { status: 413 } });
  });

// Values that are wrong for a field by any reading of SPEC §4 (null counts as missing, so it is
// wrong for required fields only: an optional field given null is simply absent).
const notAString = fc.oneof(
  fc.constantFrom('true', 'false', '0', '-1', '1.5', '1e400', '123456789012345678901234567890', '[]', '{}', '[""]', '{"a":"b"}'),
  fc.integer().map(String),
  fc.array(hostileString, { minLength: 1, maxLength: 3 }).map(json),
);
const notAnObject = fc.constantFrom('"x"', '""', '0', 'true', '[]', '["a"]', '[{}]');
const notAnArray = fc.constantFrom('"x"', '""', '0', 'true', '{}', '{"0":"a@example.com"}');
const withLineBreak = fc.tuple(printableText(10), fc.constantFrom('\r', '\n', '\r\n', '\n\r'), printableText(10)).map((parts) => parts.join(''));
const DISTINCT_ADDRESSES = Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `user${i}@example.com`);
const attachment = (fields: Record<string, unknown>) => jsonArray([json(fields)]);

const INVALID_VALUES: Record<string, fc.Arbitrary<string>> = {
  subject: fc.oneof(notAString, fc.constantFrom('null', '""', json('s'.repeat(999))), withLineBreak.map(json)),
  html: fc.oneof(notAString, fc.constantFrom('null', '""')),
  to: fc.oneof(
    notAnArray,
    fc.constantFrom('null', '[]', '[null]', '[1]', '[["a@example.com"]]', json(DISTINCT_ADDRESSES)),
    fc.tuple(fc.array(validAddress, { maxLength: 2 }), fc.constantFrom(...INVALID_ADDRESSES)).map(([good, bad]) => json([...good, bad])),
  ),
  sender: fc.oneof(notAString, fc.constant('null'), fc.constantFrom(...INVALID_ADDRESSES).map(json)),
  priority: fc.oneof(notAString, fc.constantFrom('urgent', 'HIGH', 'Normal', '', ' low', 'low ', 'lów').map(json)),
  bulkSendingId: fc.oneof(notAString, fc.constantFrom('""', json('b'.repeat(256)))),
  contactId: fc.oneof(notAString, fc.constantFrom('""', json('c'.repeat(256)))),
  customPayload: fc.oneof(
    notAnObject,
    fc.constantFrom('{"a":1}', '{"a":true}', '{"a":null}', '{"a":{"b":"c"}}', '{"a":["x"]}', '{"":"x"}'),
    fc.constantFrom(
      json(Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']))),
      json({ ['k'.repeat(101)]: 'v' }),
      json({ a: 'v'.repeat(1001) }),
    ),
  ),
  webhook: fc.constantFrom(
    '"https://example.com/hook"', '0', 'true', '[]', '[{"url":"https://example.com/hook"}]', '{}', '{"status":["sent"]}',
    '{"url":"/hook"}', '{"url":"ftp://example.com/hook"}', '{"url":"javascript:alert(1)"}', '{"url":"https://example.com/h","status":"sent"}',
    '{"url":"https://example.com/h","status":["delivered"]}', '{"url":"https://user:secret@example.com/h"}',
    '{"url":"http://127.0.0.1/h"}', '{"url":"http://[::1]/h"}', json({ url: `https://example.com/${'p'.repeat(2048)}` }),
  ),
  attachments: fc.oneof(
    notAnArray,
    fc.constantFrom('[null]', '[1]', '["aGk="]', '[[]]', '[{}]'),
    fc.constantFrom(
      attachment({ fileName: '../etc/passwd', content: '' }),
      attachment({ fileName: 'a\\b.txt', content: '' }),
      attachment({ fileName: 'a\r\n.txt', content: '' }),
      attachment({ fileName: '', content: '' }),
      attachment({ fileName: 'f'.repeat(256), content: '' }),
      attachment({ fileName: 'a.txt', content: 'not base64!' }),
      attachment({ fileName: 'a.txt', content: 'aGk' }),
      attachment({ fileName: 'a.txt', content: '-_-_' }),
      attachment({ fileName: 'a.txt', content: 42 }),
      attachment({ fileName: 'a.txt' }),
      attachment({ content: '' }),
      attachment({ fileName: 'a.txt', content: '', url: 'https://example.com/x' }),
      json(Array.from({ length: 21 }, () => ({ fileName: 'a.txt', content: '' }))),
    ),
  ),
  attachmentIds: fc.oneof(notAnArray, fc.constantFrom('[1]', '["abc"]', '[null]'), fc.uuid().map((id) => json([id]))),
};

/** One change to a valid body; `breaks` names the field a 400 must name, when the change surely breaks one. */
interface Mutation {
  kind: 'set' | 'drop' | 'duplicate';
  key: string;
  value?: string;
  breaks?: string;
}

const invalidValueMutation: fc.Arbitrary<Mutation> = fc.oneof(
  ...Object.entries(INVALID_VALUES).map(([key, values]) => values.map((value): Mutation => ({ kind: 'set', key, value, breaks: key }))),
);
const missingFieldMutation: fc.Arbitrary<Mutation> = fc
  .constantFrom(...REQUIRED_SEND_FIELDS)
  .map((key) => ({ kind: 'drop', key, breaks: key }));
const unknownKey = fc.oneof(fc.string({ unit: hostileChar, maxLength: 16 }), fc.constantFrom('cc', 'bcc', 'Subject', 'SUBJECT', ' to', 'from', 'id', 'userId', 'status', 'toString', 'hasOwnProperty', 'a.b', ''))
  .filter((key) => !SEND_FIELDS.includes(key) && !RESERVED_KEYS.includes(key) && !key.includes('\0'));
const unknownFieldMutation: fc.Arbitrary<Mutation> = fc
  .tuple(unknownKey, junkValue)
  .map(([key, value]) => ({ kind: 'set', key, value, breaks: key }));
/** A reserved key at the top or nested where objects are allowed: __proto__, constructor or prototype. */
const reservedKeyMutation: fc.Arbitrary<Mutation> = fc
  .tuple(fc.constantFrom(...RESERVED_KEYS), fc.oneof(junkValue, fc.constant('{"polluted":"yes"}'), fc.constant('{"prototype":{"polluted":"yes"}}')), fc.constantFrom('top', 'customPayload', 'webhook', 'attachments', 'deep'))
  .map(([reserved, value, where]): Mutation => {
    switch (where) {
      case 'customPayload':
        return { kind: 'set', key: 'customPayload', value: jsonObject([['a', '"b"'], [reserved, value]]), breaks: `customPayload.${reserved}` };
      case 'webhook':
        return { kind: 'set', key: 'webhook', value: jsonObject([['url', '"https://example.com/h"'], [reserved, value]]), breaks: `webhook.${reserved}` };
      case 'attachments':
        return { kind: 'set', key: 'attachments', value: jsonArray([jsonObject([['fileName', '"a.txt"'], ['content', '""'], [reserved, value]])]), breaks: `attachments[0].${reserved}` };
      case 'deep':
        return { kind: 'set', key: 'extra', value: jsonObject([['a', jsonArray([jsonObject([[reserved, value]])])]]), breaks: `extra.a[0].${reserved}` };
      default:
        return { kind: 'set', key: reserved, value, breaks: reserved };
    }
  });
/** PostgreSQL text cannot hold NUL: it must be refused, never reach an INSERT. */
const nulMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom('subject', 'html', 'sender', 'bulkSendingId', 'contactId').map((key): Mutation => ({ kind: 'set', key, value: json('a\u0000b'), breaks: key })),
  fc.constant<Mutation>({ kind: 'set', key: 'to', value: json(['ada\u0000@example.com']), breaks: 'to' }),
  fc.constant<Mutation>({ kind: 'set', key: 'customPayload', value: json({ k: 'v\u0000' }), breaks: 'customPayload' }),
  fc.constant<Mutation>({ kind: 'set', key: 'customPayload', value: json({ 'k\u0000': 'v' }), breaks: 'customPayload' }),
);
/** The key again, later in the text, with a bad value: JSON.parse keeps the last one. */
const duplicateKeyMutation: fc.Arbitrary<Mutation> = invalidValueMutation.map((m) => ({ ...m, kind: 'duplicate' }));
/**
 * A lone surrogate (sent as a JSON escape, the only way to send one) in a string, a key or an
 * address. Refusing it and storing U+FFFD are both fair; a 500 or a half-written record is not.
 */
const loneSurrogateMutation: fc.Arbitrary<Mutation> = fc
  .tuple(loneSurrogate, fc.constantFrom('subject', 'html', 'sender', 'to', 'bulkSendingId', 'contactId', 'customPayload value', 'customPayload key', 'fileName', 'webhook', 'unknown key'))
  .map(([lone, where]): Mutation => {
    switch (where) {
      case 'to':
        return { kind: 'set', key: 'to', value: json([`ada${lone}@example.com`]) };
      case 'sender':
        return { kind: 'set', key: 'sender', value: json(`billing${lone}@example.com`) };
      case 'customPayload value':
        return { kind: 'set', key: 'customPayload', value: json({ k: `v${lone}` }) };
      case 'customPayload key':
        return { kind: 'set', key: 'customPayload', value: json({ [`k${lone}`]: 'v' }) };
      case 'fileName':
        return { kind: 'set', key: 'attachments', value: attachment({ fileName: `${lone}.txt`, content: '' }) };
      case 'webhook':
        return { kind: 'set', key: 'webhook', value: json({ url: `https://example.com/${lone}` }) };
      case 'unknown key':
        return { kind: 'set', key: `x${lone}`, value: '"x"' };
      default:
        return { kind: 'set', key: where, value: json(`a${lone}b`) };
    }
  });
/** Any junk in a known field: no outcome is predicted beyond the general properties. */
const junkFieldMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.tuple(fc.constantFrom(...SEND_FIELDS), anyJunkValue).map(([key, value]): Mutation => ({ kind: 'set', key, value })),
  hostileAddress.map((address): Mutation => ({ kind: 'set', key: 'sender', value: json(address) })),
  fc.array(hostileAddress, { minLength: 1, maxLength: 3 }).map((addresses): Mutation => ({ kind: 'set', key: 'to', value: json(addresses) })),
);

const mutation = fc.oneof(
  { weight: 6, arbitrary: invalidValueMutation },
  { weight: 1, arbitrary: missingFieldMutation },
  { weight: 2, arbitrary: unknownFieldMutation },
  { weight: 2, arbitrary: reservedKeyMutation },
  { weight: 1, arbitrary: nulMutation },
  { weight: 1, arbitrary: loneSurrogateMutation },
  { weight: 1, arbitrary: duplicateKeyMutation },
  { weight: 3, arbitrary: junkFieldMutation },
);

function applyMutation(entries: Entry[], { kind, key, value }: Mutation): Entry[] {
  if (kind === 'drop') return entries.filter(([k]) => k !== key);
  if (kind === 'duplicate') return [...entries, [key, value!]];
  return entries.some(([k]) => k === key) ? entries.map(([k, v]) => (k === key ? [k, value!] : [k, v])) : [...entries, [key, value!]];
}

/** A valid body with one or two fields broken, dropped, added or repeated. */
const nearValidSendCase: fc.Arbitrary<SendCase> = fc
  .tuple(validSendBody, fc.array(mutation, { minLength: 1, maxLength: 2 }), fc.boolean())
  .map(([body, mutations, spaced]) => {
    const entries = mutations.reduce(applyMutation, Object.entries(body).map(([k, v]): Entry => [k, json(v)]));
    const certain = mutations.every((m) => m.breaks !== undefined);
    return sendCaseOf({
      family: 'near-valid',
      raw: jsonObject(entries, spaced ? ',\n  ' : ','),
      expect: certain ? { status: 400, fields: mutations.map((m) => m.breaks!) } : undefined,
    });
  });

/** An object of junk keys and values, known field names among them. */
const junkObjectCase: fc.Arbitrary<SendCase> = fc
  .array(fc.tuple(junkKey, anyJunkValue), { maxLength: 6 })
  .map((entries) => sendCaseOf({ family: 'junk object', raw: jsonObject(entries) }));

/** Any JSON value as the whole body: strings, numbers, arrays, null. */
const junkValueCase: fc.Arbitrary<SendCase> = anyJunkValue.map((raw) => sendCaseOf({ family: 'junk value', raw }));

const MALFORMED_TEXTS = [
  '', ' ', '{', '}', '{"subject":}', "{'subject':'x'}", '{"subject":"x",}', '{"a":NaN}', '{"a":01}', '{"a":.5}', '// c\n{}', '/* c */{}',
  '\ufeff{}', '{"a" "b"}', '{"a":1}{"b":2}', '{"a":tru}', '\u0000', '{"a":"\\x41"}', '{"a":"\\u12"}', '{"a":"line\nbreak"}', 'undefined',
  '{"subject":"x"', '[', '{"a":[1,2}', '{"a":1e}', '{"a":-}', '{"\\ud800":1}',
];
/** Text that is not a JSON object: malformed, truncated, or a valid body with garbage spliced in. */
const malformedCase: fc.Arbitrary<SendCase> = fc.oneof(
  fc.constantFrom(...MALFORMED_TEXTS),
  fc.tuple(validSendBody.map((body) => json(body)), fc.nat()).map(([raw, cut]) => raw.slice(0, cut % raw.length)),
  fc.tuple(validSendBody.map((body) => json(body)), fc.nat(), fc.constantFrom('"', ',', '}', ']', '\\', '\u0000', 'x', ':'))
    .map(([raw, at, junk]) => raw.slice(0, at % raw.length) + junk + raw.slice(at % raw.length)),
).map((raw) => sendCaseOf({ family: 'malformed', raw }));

const sendCase: fc.Arbitrary<SendCase> = fc.oneof(
  { weight: 4, arbitrary: validSendCase },
  { weight: 10, arbitrary: nearValidSendCase },
  { weight: 1, arbitrary: oversizeAttachmentsCase },
  { weight: 2, arbitrary: junkObjectCase },
  { weight: 1, arbitrary: junkValueCase },
  { weight: 2, arbitrary: malformedCase },
);

// ---------------------------------------------------------------------------------------------
// GET /user/messages: what a case is.

type Verdict = 'valid' | 'invalid' | 'unknown';

/** One `name=value` pair as sent; `hint` says what the generator knows of its value, `bound` the instant a valid date stands for. */
interface QueryParam {
  wire: string;
  hint?: Verdict;
  bound?: number;
}

interface QueryCase {
  family: string;
  params: QueryParam[];
}

/** Percent-encodes what a well-behaved client would (a lone surrogate becomes U+FFFD, as browsers do). */
const encode = (text: string): string => encodeURIComponent(wellFormed(text));
const pair = (name: string, value: string, extra: Omit<QueryParam, 'wire'> = {}): QueryParam => ({ wire: `${encode(name)}=${encode(value)}`, ...extra });

// Dates: generated from an instant, so the test knows which instant the server must understand.
const DAY = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const utcDay = (d: Date) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

interface DateText {
  text: string;
  /** The instant it stands for as a start bound and as an end bound (a whole day differs). */
  start: number;
  end: number;
}

const instant = fc.oneof(
  // Around the seeded messages, so that ranges cut through them.
  { weight: 3, arbitrary: fc.integer({ min: Date.UTC(2025, 11, 25), max: Date.UTC(2026, 3, 5) }) },
  { weight: 1, arbitrary: fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }) },
);
const offsetMinutes = fc.oneof(fc.constant(0), fc.constantFrom(60, -300, 330, 345, 840, -720), fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }));

/** `2026-03-01` (a whole UTC day) or a date-time with an offset, at millisecond, second or minute precision. */
const validDate: fc.Arbitrary<DateText> = fc.oneof(
  instant.map((ms) => {
    const start = floorTo(ms, DAY);
    return { text: utcDay(new Date(ms)), start, end: start + DAY - 1 };
  }),
  fc
    .tuple(instant, offsetMinutes, fc.constantFrom('ms', 's', 'min'), fc.constantFrom('T', 't'), fc.constantFrom('Z', 'z', '+00:00', '-00:00'))
    .map(([ms, offset, precision, t, utc]) => {
      const local = new Date(ms + offset * 60_000);
      const seconds = precision === 'min' ? '' : `:${pad(local.getUTCSeconds())}${precision === 'ms' ? `.${pad(local.getUTCMilliseconds(), 3)}` : ''}`;
      const zone = offset === 0 ? utc : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
      const text = `${utcDay(local)}${t}${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}${seconds}${zone}`;
      const shown = floorTo(local.getTime(), precision === 'ms' ? 1 : precision === 's' ? 1000 : 60_000);
      const bound = shown - offset * 60_000;
      return { text, start: bound, end: bound };
    }),
);

const INVALID_DATES = [
  '', 'yesterday', 'now', '2026-02-30', '2026-02-29', '2026-13-01', '2026-00-10', '2026-3-1', '26-03-01', '01/03/2026', '2026/03/01',
  '2026-03-01T12:00:00', '2026-03-01T24:00:00Z', '2026-03-01T12:60:00Z', '2026-03-01T12:00:60Z', '2026-03-01T12:00:00+24:00',
  '2026-03-01T12:00:00+0100', '2026-03-01 12:00:00Z', '9999-12-31T23:00:00-14:00', '0000-01-01', '+002026-03-01', '2026-03-01Z',
  '２０２６-03-01', '٢٠٢٦-٠٣-٠١', '1772323200000', '2026-W09', '2026-060', 'null', 'Invalid Date', '2026-03-01T12:00:00.Z',
];

const validStatuses = fc
  .tuple(fc.array(fc.constantFrom(...MESSAGE_STATUSES), { minLength: 1, maxLength: 6 }), fc.constantFrom(',', ', ', ' ,'))
  .map(([statuses, separator]) => statuses.join(separator));

// The list user's messages; valid queries pick these addresses and bulk ids often, so that filters match.
interface Seeded {
  sentAt: string;
  sender: string;
  recipients: string[];
  status: MessageStatus;
  bulkSendingId: string | null;
}
const SEEDED: Seeded[] = [
  { sentAt: '2025-12-31T23:30:00.000Z', sender: 'news@example.com', recipients: ['Ada@Example.com'], status: 'queued', bulkSendingId: null },
  { sentAt: '2026-01-01T00:00:00.000Z', sender: 'news@example.com', recipients: ['ada@example.com', 'grace@example.com'], status: 'sent', bulkSendingId: 'spring' },
  { sentAt: '2026-01-15T08:00:00.123Z', sender: 'Billing@Example.com', recipients: ['linus@example.com'], status: 'failed', bulkSendingId: 'spring' },
  { sentAt: '2026-02-01T12:00:00.000Z', sender: 'billing@example.com', recipients: ['İ@example.com'], status: 'deferred', bulkSendingId: 'Spring' },
  { sentAt: '2026-02-28T23:59:59.999Z', sender: 'İ@example.com', recipients: ['grace@example.com'], status: 'sending', bulkSendingId: 'summer 🌞' },
  { sentAt: '2026-03-01T00:00:00.000Z', sender: 'news@example.com', recipients: ['i@example.com'], status: 'sent', bulkSendingId: null },
  { sentAt: '2026-03-01T00:00:00.000Z', sender: 'josé@example.com', recipients: ['ada@example.com'], status: 'queued', bulkSendingId: 'spring' },
  { sentAt: '2026-03-15T18:45:30.500Z', sender: 'news@example.com', recipients: ['ünïcödé@bücher.de'], status: 'failed', bulkSendingId: 'summer 🌞' },
  { sentAt: '2026-03-31T23:59:59.999Z', sender: 'Billing@Example.com', recipients: ['grace@example.com', 'linus@example.com'], status: 'sent', bulkSendingId: null },
  { sentAt: '2026-04-01T00:00:00.000Z', sender: 'news@example.com', recipients: ['ada@example.com'], status: 'queued', bulkSendingId: 'spring' },
  { sentAt: '2026-04-02T10:00:00.000Z', sender: 'billing@example.com', recipients: ['ada@example.com'], status: 'deferred', bulkSendingId: 'summer' },
  { sentAt: '2026-04-03T10:00:00.000Z', sender: 'news@example.com', recipients: ['grace@example.com'], status: 'sent', bulkSendingId: 'spring' },
];
const seededAddress = fc.oneof(
  fc.mixedCase(fc.constantFrom(...new Set(SEEDED.flatMap((m) => [m.sender, ...m.recipients].filter((a) => /^[\x20-\x7e]+$/.test(a)))))),
  fc.constantFrom('İ@example.com', 'josé@example.com', 'ünïcödé@bücher.de'),
);

/** A query every reading of SPEC §6 accepts, with the instants its dates stand for. */
const validQueryParams: fc.Arbitrary<QueryParam[]> = fc
  .record(
    {
      take: fc.integer({ min: 1, max: 100 }),
      page: fc.oneof({ weight: 5, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 1_000_000 }) }),
      includeStatusHistory: fc.constantFrom('true', 'false', '1', '0'),
      range: fc.tuple(fc.option(validDate, { nil: undefined }), fc.option(validDate, { nil: undefined })),
      fromEmail: fc.oneof(seededAddress, validAddress),
      toEmail: fc.oneof(seededAddress, validAddress),
      statuses: validStatuses,
      bulkSending: fc.oneof(fc.constantFrom('spring', 'Spring', 'summer', 'summer 🌞'), printableText(30, 255)),
    },
    { requiredKeys: [] },
  )
  .map(({ take, page, range, ...strings }) => {
    const params: QueryParam[] = [];
    if (take !== undefined) params.push(pair('take', String(take), { hint: 'valid' }));
    if (page !== undefined) params.push(pair('page', String(page), { hint: 'valid' }));
    // Sorted so that most ranges are valid; a reversed range is a case of its own.
    const [a, b] = range ?? [];
    const [first, last] = a && b && a.start > b.end ? [b, a] : [a, b];
    if (first) params.push(pair('startDate', first.text, { hint: 'valid', bound: first.start }));
    if (last) params.push(pair('endDate', last.text, { hint: 'valid', bound: last.end }));
    for (const [name, value] of Object.entries(strings)) if (value !== undefined) params.push(pair(name, value, { hint: 'valid' }));
    return params;
  });

const PERCENT_JUNK = ['%', '%%', '%zz', '%2', '%E0%A4%A', '%ED%A0%80', '%C0%AF', '%FF%FE', '%00', '%uD800', '%%32%35', '%252e', '%0D%0A', '%F0%9F%98', '%EF%BB%BF1', '+', '%2B1', '1%2C2'];
const INTEGER_JUNK = ['0', '101', '-1', '-0', '1.5', '1.0', '1e3', '0x10', ' 1', '1 ', '+1', '', 'ten', '１', '٣', '99999999999999999999', 'NaN', 'Infinity', 'null', '[]', '1,2', '007'];

/** A bad or doubtful value for one named parameter, percent-encoded or percent-junk. */
const junkQueryParam: fc.Arbitrary<QueryParam> = fc.oneof(
  fc.tuple(fc.constantFrom('take', 'page'), fc.oneof(fc.constantFrom(...INTEGER_JUNK), fc.integer({ min: -1e12, max: 1e12 }).map(String), fc.double().map(String), hostileQueryString))
    .map(([name, value]) => pair(name, value)),
  fc.tuple(fc.constant('includeStatusHistory'), fc.oneof(fc.constantFrom('TRUE', 'True', 'yes', 'no', 'on', '', '2', '-1', '01', 'true ', 't'), hostileQueryString))
    .map(([name, value]) => pair(name, value)),
  fc.tuple(fc.constantFrom('startDate', 'endDate'), fc.constantFrom(...INVALID_DATES)).map(([name, value]) => pair(name, value, { hint: 'invalid' })),
  fc.tuple(fc.constantFrom('startDate', 'endDate', 'fromEmail', 'toEmail', 'statuses', 'bulkSending'), hostileQueryString).map(([name, value]) => pair(name, value)),
  fc.tuple(fc.constantFrom('fromEmail', 'toEmail'), fc.constantFrom(...INVALID_ADDRESSES)).map(([name, value]) => pair(name, value, { hint: 'invalid' })),
  fc.tuple(fc.constant('statuses'), fc.constantFrom('', ',', 'sent,', ',sent', 'sent,,failed', 'SENT', 'delivered', 'sent;failed', 'sent failed', 'queued,bounced'))
    .map(([name, value]) => pair(name, value)),
  fc.tuple(fc.constant('bulkSending'), fc.constantFrom('', 'b'.repeat(256), 'a\u0000b')).map(([name, value]) => pair(name, value)),
  // Percent-encoding junk goes on the wire as it is.
  fc.tuple(fc.constantFrom(...QUERY_FIELDS), fc.constantFrom(...PERCENT_JUNK)).map(([name, value]) => ({ wire: `${name}=${value}` })),
);

/** Parameters the endpoint does not have: typos, other APIs' names, array syntax, hostile names, bare keys. */
const unknownQueryParam: fc.Arbitrary<QueryParam> = fc.oneof(
  fc.tuple(
    fc.oneof(
      fc.constantFrom('limit', 'offset', 'sort', 'q', 'Take', 'TAKE', 'take ', ' take', 'userId', 'user_id', 'id', 'toString', 'hasOwnProperty', 'valueOf'),
      fc.string({ unit: hostileChar, minLength: 1, maxLength: 12 }),
    ).filter((name) => !QUERY_FIELDS.includes(name)),
    fc.oneof(fc.constantFrom('1', ''), hostileQueryString),
  ).map(([name, value]) => pair(name, value)),
  fc.constantFrom(
    'statuses[]=sent', 'statuses[0]=sent', 'take[]=1', 'take[0]=1', 'page[$gt]=1', 'fromEmail[]=ada@example.com', 'a[b][c]=d',
    '__proto__[polluted]=yes', 'constructor[prototype][polluted]=yes', '__proto__=x', 'constructor=x', 'prototype=x', '=x', '=', '&&', 'x',
  ).map((wire) => ({ wire })),
);

/** A valid parameter again with another value (`take=1&take=2`), or its name percent-encoded (`%74ake`). */
const repeatedParams: fc.Arbitrary<QueryParam[]> = fc
  .tuple(validQueryParams.filter((params) => params.length > 0), fc.nat(), fc.boolean())
  .chain(([params, i, encodedName]) => {
    const chosen = params[i % params.length];
    const name = chosen.wire.split('=')[0];
    const again = encodedName ? fc.constant({ ...chosen, wire: chosen.wire.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`) }) : junkQueryParam.filter((p) => p.wire.startsWith(`${name}=`));
    return again.map((p) => [...params, p]);
  });

/** startDate strictly after endDate: 400 naming endDate. */
const reversedRange: fc.Arbitrary<QueryParam[]> = fc
  .tuple(validDate, validDate)
  .filter(([a, b]) => a.end < b.start)
  .map(([earlier, later]) => [pair('startDate', later.text, { hint: 'valid', bound: later.start }), pair('endDate', earlier.text, { hint: 'valid', bound: earlier.end })]);

const queryCase: fc.Arbitrary<QueryCase> = fc.oneof(
  { weight: 4, arbitrary: validQueryParams.map((params) => ({ family: 'valid', params })) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(validQueryParams, fc.array(fc.oneof({ weight: 3, arbitrary: junkQueryParam }, { weight: 1, arbitrary: unknownQueryParam }), { minLength: 1, maxLength: 2 }))
      .map(([valid, junk]) => {
        // A junk value replaces the valid one of the same name, so that the case is not also a repeat.
        const names = new Set(junk.map((p) => p.wire.split('=')[0]));
        return { family: 'near-valid', params: [...valid.filter((p) => !names.has(p.wire.split('=')[0])), ...junk] };
      }),
  },
  { weight: 1, arbitrary: repeatedParams.map((params) => ({ family: 'repeated', params })) },
  { weight: 1, arbitrary: reversedRange.map((params) => ({ family: 'reversed range', params })) },
  { weight: 2, arbitrary: fc.array(fc.oneof(junkQueryParam, unknownQueryParam), { maxLength: 6 }).map((params) => ({ family: 'junk', params })) },
);

// ---------------------------------------------------------------------------------------------
// GET /user/messages: what SPEC §6 says of a query, where it says something for sure.

interface ReadParam {
  name: string;
  value: string;
  verdict: Verdict;
  bound?: number;
}

/** take/page: "integers, anything else 400". Leading zeros, `+1` and `1.0` are integers by some readings: no verdict. */
function integerVerdict(value: string, max: number, beyondMax: Verdict): Verdict {
  if (/^[1-9]\d*$/.test(value)) return Number(value) <= max ? 'valid' : beyondMax;
  if (/^0+[1-9]\d*$|^\+\d+$|^\d+\.0*$/.test(value)) return 'unknown';
  return 'invalid';
}

function statusesVerdict(value: string): Verdict {
  const entries = value.split(',');
  if (entries.some((s) => !(MESSAGE_STATUSES as readonly string[]).includes(s.trim()))) return 'invalid';
  return entries.every((s) => /^ *[a-z]+ *$/.test(s)) ? 'valid' : 'unknown';
}

const isPrototypeName = (name: string) => RESERVED_KEYS.includes(name) || name in Object.prototype;

function verdictOf(name: string, value: string, hint: Verdict | undefined): Verdict {
  switch (name) {
    case 'take':
      return integerVerdict(value, 100, 'invalid');
    // Beyond a million, the implementation's cap (skip must stay an exact JSON number) may apply.
    case 'page':
      return integerVerdict(value, 1_000_000, 'unknown');
    case 'includeStatusHistory':
      return ['true', 'false', '1', '0'].includes(value) ? 'valid' : 'invalid';
    case 'statuses':
      return statusesVerdict(value);
    case 'bulkSending':
      if (value === '' || value.includes('\0') || [...value].length > 255) return 'invalid';
      return hint ?? (value.length <= 255 ? 'valid' : 'unknown');
    case 'startDate':
    case 'endDate':
      return hint ?? (/\d/.test(value) ? 'unknown' : 'invalid');
    case 'fromEmail':
    case 'toEmail':
      return hint ?? (value.includes('@') ? 'unknown' : 'invalid');
    // An unknown parameter: 400. Names that objects already carry (toString, __proto__…) are
    // watched rather than predicted: today they are ignored with a 200, which the spec leaves open.
    default:
      return isPrototypeName(name) ? 'unknown' : 'invalid';
  }
}

/** Reads the sent query the way Express does, each pair with what its generator knew. */
function readQuery(sentParams: QueryParam[]): Map<string, ReadParam[]> {
  const byName = new Map<string, ReadParam[]>();
  for (const param of sentParams) {
    const parsed = Object.entries(parseQueryString(param.wire));
    for (const [name, raw] of parsed) {
      for (const value of Array.isArray(raw) ? raw : [raw ?? '']) {
        const verdict = verdictOf(name, value, parsed.length === 1 && !Array.isArray(raw) ? param.hint : undefined);
        byName.set(name, [...(byName.get(name) ?? []), { name, value, verdict, bound: param.bound }]);
      }
    }
  }
  return byName;
}

type QueryExpectation = { status: 200; read: Map<string, ReadParam> } | { status: 400; fields: string[] } | undefined;

function expectedListOutcome(byName: Map<string, ReadParam[]>): QueryExpectation {
  const invalid: string[] = [];
  let allValid = true;
  for (const [name, values] of byName) {
    // A repeated parameter arrives as an array, which no field but statuses could take.
    let verdict: Verdict = values[0].verdict;
    if (values.length > 1) verdict = name === 'statuses' || isPrototypeName(name) ? 'unknown' : 'invalid';
    if (verdict === 'invalid') invalid.push(name);
    if (verdict !== 'valid') allValid = false;
  }
  // "start after end: 400", reported on endDate.
  const validBound = (values?: ReadParam[]) => (values?.length === 1 && values[0].verdict === 'valid' ? values[0].bound : undefined);
  const [start, end] = [validBound(byName.get('startDate')), validBound(byName.get('endDate'))];
  if (start !== undefined && end !== undefined && start > end) invalid.push('endDate');
  if (invalid.length > 0) return { status: 400, fields: invalid };
  if (allValid) return { status: 200, read: new Map([...byName].map(([name, [value]]) => [name, value])) };
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Checks shared by both endpoints.

/** Counts what was answered, and the distinct ways of refusing (status, field shape, message). */
class Tally {
  total = 0;
  readonly byStatus = new Map<number, number>();
  readonly byFamily = new Map<string, number>();
  readonly rejectionPaths = new Set<string>();
  predicted = 0;

  constructor(private readonly knownFields: string[]) {}

  record(family: string, response: Response): void {
    this.total++;
    this.byStatus.set(response.status, (this.byStatus.get(response.status) ?? 0) + 1);
    this.byFamily.set(family, (this.byFamily.get(family) ?? 0) + 1);
    if (response.status < 400) return;
    const errors: { field: string; message: string }[] = Array.isArray(response.body?.errors) ? response.body.errors : [];
    if (errors.length === 0) this.rejectionPaths.add(`${response.status} ${mask(String(response.body?.detail)).replace(/\d+/g, 'N')}`);
    for (const { field, message } of errors) this.rejectionPaths.add(`${response.status} ${this.fieldShape(field)}: ${mask(message)}`);
  }

  /** `attachments[3].fileName` → `attachments[].fileName`; a key the caller made up → `<key>`. */
  private fieldShape(field: string): string {
    return String(field)
      .split(/(?=[.[])/)
      .map((segment, i) => {
        if (/^\[\d+\]$/.test(segment)) return '[]';
        const name = segment.replace(/^\./, '');
        const known = i === 0 ? this.knownFields.includes(name) : ['url', 'status', 'fileName', 'content'].includes(name);
        return (i === 0 ? '' : '.') + (known || RESERVED_KEYS.includes(name) ? name : '<key>');
      })
      .join('');
  }

  summary(name: string): string {
    const statuses = [...this.byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}: ${n}`).join(', ');
    const families = [...this.byFamily].map(([family, n]) => `${family}: ${n}`).join(', ');
    return `${name}: ${this.total} inputs (${families}); statuses ${statuses}; ${this.rejectionPaths.size} distinct rejection paths; ${this.predicted} outcomes predicted and checked`;
  }
}

const mask = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>').replace(/\(.*\)$/, '(…)');

/** SPEC §3: never a 5xx; every refusal is a problem whose status is the HTTP status. */
function expectWellFormedAnswer(response: Response): void {
  expect(response.status).toBeLessThan(500);
  if (response.status < 300) return;
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.body).toEqual(
    expect.objectContaining({ type: expect.any(String), title: expect.any(String), status: response.status, detail: expect.any(String), requestId: expect.any(String) }),
  );
  expect(response.body.requestId).not.toBe('');
  for (const error of response.body.errors ?? []) expect(error).toEqual({ field: expect.any(String), message: expect.any(String) });
}

/**
 * Whether an error's field is `path` or lies under it. A body error prints a key holding NUL or
 * a surrogate escaped (`\0`, `\ud800`); a query error keeps it as it is: both forms count.
 */
function isAtOrUnder(field: string, path: string): boolean {
  const escaped = path.replace(/\0/g, '\\0').replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  return [path, escaped].some((root) => field === root || field.startsWith(`${root}.`) || field.startsWith(`${root}[`));
}

/** A field error must point into the input: at a key that was sent, or at a field that was missing. */
function expectFieldsPointIntoInput(errors: { field: string }[], keys: string[]): void {
  for (const { field } of errors) {
    if (!keys.some((key) => isAtOrUnder(field, key))) throw new Error(`error field ${JSON.stringify(field)} names none of ${JSON.stringify(keys)}`);
  }
}

function expectNamed(errors: { field: string }[], fields: string[], all: boolean): void {
  const named = (field: string) => errors.some((e) => isAtOrUnder(e.field, field));
  const ok = all ? fields.every(named) : fields.some(named);
  if (!ok) throw new Error(`expected errors naming ${all ? 'all' : 'one'} of ${JSON.stringify(fields)}, got ${JSON.stringify(errors)}`);
}

const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype).sort();
/** The app runs in this process: a body that polluted Object.prototype would show here. */
function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
}

/** A 201: a Message for this user, and exactly one message stored with its recipients, history, attachments and queued delivery. */
function expectAcceptedSend(response: Response, userId: string, before: Record<string, number>, after: Record<string, number>, sent: unknown): void {
  expect(response.status).toBe(201);
  const message = response.body;
  expect(message).toEqual({
    id: expect.stringMatching(UUID), to: expect.any(Array), subject: expect.any(String), senderId: expect.stringMatching(UUID),
    status: 'queued', userId, sentAt: expect.stringMatching(ISO_UTC_MILLIS), sender: expect.any(String),
    bulkSendingId: message.bulkSendingId === null ? null : expect.any(String), contactId: message.contactId === null ? null : expect.any(String),
    priority: expect.stringMatching(/^(low|normal|high)$/), customPayload: message.customPayload === null ? null : expect.any(Object),
  });
  expect(response.headers.location).toBe(`/user/messages/${message.id}`);
  const attachments = isObject(sent) && Array.isArray(sent.attachments) ? sent.attachments.length : 0;
  expect(after).toEqual({
    ...before,
    senders: before.senders + 1, // the user is new
    messages: before.messages + 1,
    recipients: before.recipients + message.to.length,
    events: before.events + 1,
    attachments: before.attachments + attachments,
    webhookEvents: after.webhookEvents, // one when the webhook asks for `queued`
    deliveryJobs: before.deliveryJobs + 1,
    webhookJobs: before.webhookJobs + (after.webhookEvents - before.webhookEvents),
  });
}

/** The answer to a valid body echoes what was sent. */
function expectEcho(message: Record<string, unknown>, sent: Record<string, unknown>): void {
  expect(message).toMatchObject({
    subject: sent.subject,
    sender: sent.sender,
    priority: sent.priority ?? 'normal',
    bulkSendingId: sent.bulkSendingId ?? null,
    contactId: sent.contactId ?? null,
  });
  expect(message.customPayload).toEqual(sent.customPayload ?? null);
  // Duplicates (by letter case) are dropped, keeping the first spelling.
  const sentTo = new Set(sent.to as string[]);
  expect((message.to as string[]).every((address) => sentTo.has(address))).toBe(true);
}

interface Page {
  messages: { userId: string }[];
  take: number;
  page: number;
  skip: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  [filter: string]: unknown;
}

/** SPEC §6's envelope, consistent with itself, holding only this user's messages. */
function expectPageEnvelope(body: Page, userId: string): void {
  const nullOr = (matcher: unknown, value: unknown) => (value === null ? null : matcher);
  expect(body).toEqual({
    messages: expect.any(Array), take: expect.any(Number), page: expect.any(Number), skip: expect.any(Number),
    total: expect.any(Number), totalPages: expect.any(Number), hasNext: expect.any(Boolean),
    startDate: nullOr(expect.stringMatching(ISO_UTC_MILLIS), body.startDate), endDate: nullOr(expect.stringMatching(ISO_UTC_MILLIS), body.endDate),
    fromEmail: nullOr(expect.any(String), body.fromEmail), toEmail: nullOr(expect.any(String), body.toEmail),
    statuses: nullOr(expect.any(String), body.statuses), bulkSending: nullOr(expect.any(String), body.bulkSending),
  });
  expect(body.skip).toBe((body.page - 1) * body.take);
  expect(body.totalPages).toBe(Math.ceil(body.total / body.take));
  expect(body.hasNext).toBe(body.page < body.totalPages);
  expect(body.messages.length).toBe(Math.max(0, Math.min(body.take, body.total - body.skip)));
  expect(body.messages.every((m) => m.userId === userId)).toBe(true);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function tryParse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** How many values inspectJson counts: a body over 10,000 is refused as a whole, without field errors. */
function countValues(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Object.values(value);
  return children.length + children.reduce((sum: number, child) => sum + countValues(child), 0);
}

// ---------------------------------------------------------------------------------------------

describe('hostile input (property-based)', () => {
  let t: TestApp;
  let suiteStart: Date;
  const sendTally = new Tally(SEND_FIELDS);
  const listTally = new Tally(QUERY_FIELDS);

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '1000000', MAX_RECIPIENTS: String(MAX_RECIPIENTS), MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES) });
    [{ now: suiteStart }] = await t.db.query(`SELECT now() AS now`);
  });
  afterAll(async () => {
    console.log(`hostile input\n  ${sendTally.summary('POST /sender/send')}\n  ${listTally.summary('GET /user/messages')}`);
    await t?.close();
  });

  /** Everything a send can write for a user, and queue jobs that point at nothing (a half-written send). */
  async function footprint(userId: string): Promise<Record<string, number>> {
    const [rows, [queue]] = await Promise.all([
      rowsOwnedBy(t.db, userId),
      t.db.query(
        `SELECT
           (SELECT count(*)::int FROM webhook_events WHERE user_id = $1) AS "webhookEvents",
           (SELECT count(*)::int FROM pgboss.job WHERE name = 'message-delivery'
              AND data->>'messageId' IN (SELECT id::text FROM messages WHERE user_id = $1)) AS "deliveryJobs",
           (SELECT count(*)::int FROM pgboss.job WHERE name = 'webhook-delivery'
              AND data->>'eventId' IN (SELECT id::text FROM webhook_events WHERE user_id = $1)) AS "webhookJobs",
           (SELECT count(*)::int FROM pgboss.job j WHERE j.created_on >= $2 AND (
              (j.name = 'message-delivery' AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = (j.data->>'messageId')::uuid))
              OR (j.name = 'webhook-delivery' AND NOT EXISTS (SELECT 1 FROM webhook_events w WHERE w.id = (j.data->>'eventId')::uuid))
           )) AS "orphanJobs"`,
        [userId, suiteStart],
      ),
    ]);
    return { ...rows, ...queue };
  }

  it('answers every generated send body with 201 and a Message or a problem, and a refused one writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(sendCase, async ({ family, raw, expect: expectation }) => {
        // A user per run: a refusal must leave this user with nothing at all.
        const userId = newUserId('fuzz');
        const before = await footprint(userId);
        const response = await t.http.post('/sender/send').set(bearer(userId)).set('Content-Type', 'application/json').send(raw);
        sendTally.record(family, response);

        expectWellFormedAnswer(response);
        expectPrototypeUntouched();
        const after = await footprint(userId);
        // As the server reads it: UTF-8 on the wire turns an unescaped lone surrogate into U+FFFD.
        const parsed = tryParse(Buffer.from(raw).toString());

        if (response.status < 300) expectAcceptedSend(response, userId, before, after, parsed);
        else expect(after).toEqual(before);

        // JSON that is not an object is refused as a whole; an object is refused field by field.
        if (!isObject(parsed)) expect(response.status).toBe(400);
        if (response.status === 400 && isObject(parsed) && countValues(parsed) <= 10_000) {
          expect(response.body.errors?.length).toBeGreaterThan(0);
          expectFieldsPointIntoInput(response.body.errors, [...Object.keys(parsed), ...SEND_FIELDS]);
        }

        if (expectation) {
          sendTally.predicted++;
          expect(response.status).toBe(expectation.status);
          if (expectation.fields) expectNamed(response.body.errors ?? [], expectation.fields, false);
          if (expectation.status === 201 && isObject(parsed)) expectEcho(response.body, parsed);
        }
      }),
      { numRuns: SEND_RUNS, ...replay },
    );
    expect(sendTally.total).toBeGreaterThanOrEqual(REQUIRED_RUNS);
  }, 300_000);

  describe('GET /user/messages', () => {
    const userId = newUserId('fuzz-list');
    const stored: (Seeded & { id: string })[] = [];

    beforeAll(async () => {
      for (const seeded of SEEDED) {
        const message = await storeMessage(t.db, userId, { ...seeded, sentAt: new Date(seeded.sentAt) });
        stored.push({ ...seeded, id: message.id });
      }
    });

    /** The page a valid query must answer, computed from the seeded messages. */
    function expectedPage(read: Map<string, ReadParam>) {
      const take = Number(read.get('take')?.value ?? 10);
      const page = Number(read.get('page')?.value ?? 1);
      const start = read.get('startDate')?.bound;
      const end = read.get('endDate')?.bound;
      const from = read.get('fromEmail')?.value.toLowerCase();
      const to = read.get('toEmail')?.value.toLowerCase();
      const statuses = read.get('statuses') && [...new Set(read.get('statuses')!.value.split(',').map((s) => s.trim()))];
      const bulk = read.get('bulkSending')?.value;
      const matching = stored
        .filter((m) => {
          const at = Date.parse(m.sentAt);
          return (start === undefined || at >= start) && (end === undefined || at <= end)
            && (from === undefined || m.sender.toLowerCase() === from)
            && (to === undefined || m.recipients.some((r) => r.toLowerCase() === to))
            && (statuses === undefined || statuses.includes(m.status))
            && (bulk === undefined || m.bulkSendingId === bulk);
        })
        .sort((a, b) => b.sentAt.localeCompare(a.sentAt) || b.id.localeCompare(a.id));
      const skip = (page - 1) * take;
      const totalPages = Math.ceil(matching.length / take);
      return {
        ids: matching.slice(skip, skip + take).map((m) => m.id),
        envelope: {
          take, page, skip, total: matching.length, totalPages, hasNext: page < totalPages,
          startDate: start === undefined ? null : new Date(start).toISOString(),
          endDate: end === undefined ? null : new Date(end).toISOString(),
          fromEmail: from ?? null,
          toEmail: to ?? null,
          statuses: statuses?.join(',') ?? null,
          bulkSending: bulk ?? null,
        },
      };
    }

    it('answers every generated query with the paging envelope or a problem naming the bad parameters', async () => {
      await fc.assert(
        fc.asyncProperty(queryCase, async ({ family, params }) => {
          const query = params.map((p) => p.wire).join('&');
          const response = await t.http.get(`/user/messages?${query}`).set(bearer(userId));
          listTally.record(family, response);

          expectWellFormedAnswer(response);
          expectPrototypeUntouched();
          // Each pair as it goes on the wire once the client has normalized the URL, as Express reads it.
          const sent = params.map((p) => ({ ...p, wire: new URL(`http://mailroom.test/?${p.wire}`).search.slice(1) }));
          const sentNames = sent.flatMap((p) => Object.keys(parseQueryString(p.wire)));

          if (response.status < 300) {
            expect(response.status).toBe(200);
            expectPageEnvelope(response.body, userId);
          } else if (response.status === 400) {
            expect(response.body.errors?.length).toBeGreaterThan(0);
            expectFieldsPointIntoInput(response.body.errors, [...sentNames, ...QUERY_FIELDS]);
          }

          const expectation = expectedListOutcome(readQuery(sent));
          if (expectation) {
            listTally.predicted++;
            expect(response.status).toBe(expectation.status);
            if (expectation.status === 400) expectNamed(response.body.errors, expectation.fields, true);
            if (expectation.status === 200) {
              const { ids, envelope } = expectedPage(expectation.read);
              expect(response.body).toMatchObject(envelope);
              expect(response.body.messages.map((m: { id: string }) => m.id)).toEqual(ids);
              const withHistory = ['true', '1'].includes(expectation.read.get('includeStatusHistory')?.value ?? '');
              for (const m of response.body.messages) expect(Array.isArray(m.statusHistory)).toBe(withHistory);
            }
          }
        }),
        { numRuns: LIST_RUNS, ...replay },
      );
      expect(listTally.total).toBeGreaterThanOrEqual(REQUIRED_RUNS);
    }, 300_000);
  });
});
