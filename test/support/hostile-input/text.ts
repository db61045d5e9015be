import fc from 'fast-check';

/*
 * The raw material of the fuzz suites: JSON written as text, strings that break naive code,
 * junk values, and email addresses good and bad.
 */

export const RESERVED_KEYS = ['__proto__', 'constructor', 'prototype'];
export const SEND_FIELDS = [
  'subject',
  'html',
  'to',
  'sender',
  'attachments',
  'attachmentIds',
  'bulkSendingId',
  'contactId',
  'customPayload',
  'priority',
  'webhook',
  'cc',
  'bcc',
  'replyTo',
  'text',
  'headers',
  'scheduledAt',
];
/** Required on their own; html is required when text is absent (docs/api.md#sending). */
export const REQUIRED_SEND_FIELDS = ['subject', 'to', 'sender'];
export const QUERY_FIELDS = [
  'take',
  'page',
  'includeStatusHistory',
  'startDate',
  'endDate',
  'fromEmail',
  'toEmail',
  'statuses',
  'bulkSending',
  'q',
];

// JSON text. Bodies are written as text, not built as objects: an object literal turns a
// `__proto__` key into the prototype (and JSON.stringify then drops it), and text also lets a
// body repeat a key or be malformed.

export type Entry = readonly [key: string, valueText: string];
export const json = (value: unknown): string => JSON.stringify(value);
export const jsonObject = (entries: readonly Entry[], separator = ','): string =>
  `{${entries.map(([key, value]) => `${json(key)}:${value}`).join(separator)}}`;
export const jsonArray = (items: readonly string[]): string => `[${items.join(',')}]`;

/** The same object with every non-ASCII code unit escaped (`\u00e9`), which must parse identically. */
export const asciiEscaped = (text: string): string =>
  text.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// Strings that break naive code.

export const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** What UTF-8 makes of a string: a lone surrogate cannot be encoded and becomes U+FFFD. */
export const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\ufffd');

/** One "character" of any kind: any code point (astral too), a multi-code-point grapheme, a lone surrogate, a control. */
export const hostileChar = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: loneSurrogate },
  {
    weight: 1,
    arbitrary: fc.constantFrom('\u0301', '\u202e', '\u200d', '\ufeff', '\u2028', '\r', '\n', '\t', '\u0000', '\u001b'),
  },
);

export const TRICKY_STRINGS = [
  '',
  ' ',
  '   ',
  '\u202eevil\u202c',
  'مرحبا بالعالم',
  'שלום עולם',
  'e\u0301\u0301\u0301\u0301',
  'Z\u0338\u0321\u0322\u034e\u0344a\u0335',
  '👩‍👩‍👧‍👦',
  '𝕳𝖊𝖑𝖑𝖔',
  '\ud83d',
  '\ude00',
  'a\udc00b',
  '\ufeff',
  '\u200b\u200d',
  'İ',
  'ß',
  'ﬃ',
  '\u2028\u2029',
  '\u0007\u001b[31m',
  '${7*7}',
  '{{7*7}}',
  "'; DROP TABLE messages; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  'NaN',
  'Infinity',
  '%00',
  '\\u0000',
  '\u0000',
  'a\r\nBcc: x@example.com',
];

// Built once: fast-check would otherwise spend its time generating megabytes character by character.
export const HUGE_STRINGS = [
  'x'.repeat(65_536),
  'é'.repeat(100_000),
  '𝕏'.repeat(50_000),
  'x'.repeat(5 * 1024 * 1024 + 1),
];

/** Short strings of hostile characters, known troublemakers, and now and then a huge one. */
export const hostileString = fc.oneof(
  { weight: 20, arbitrary: fc.string({ unit: hostileChar, maxLength: 24 }) },
  { weight: 10, arbitrary: fc.constantFrom(...TRICKY_STRINGS) },
  { weight: 3, arbitrary: fc.nat({ max: 3000 }).map((n) => 'x'.repeat(n)) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE_STRINGS) },
);

/** The same without the huge ones: a URL of megabytes is refused by Node's HTTP parser before the app sees it. */
export const hostileQueryString = fc.oneof(
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
export const printableText = (maxLength: number, maxUnits = Infinity) =>
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength })
    .filter((s) => !/[\0\r\n]/.test(s) && s.length <= maxUnits && /[^\ufe0e\ufe0f]/.test(s));

// Junk JSON values, as text.

export const JUNK_SCALARS = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e400',
  '-1e-400',
  '123456789012345678901234567890',
  '[]',
  '{}',
];

/** Nested junk: scalars, hostile strings, arrays and objects whose keys may be reserved names. */
export const junkKey = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: hostileChar, maxLength: 12 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      ...SEND_FIELDS,
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__defineGetter__',
      'a.b',
      'a[0]',
      '',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...RESERVED_KEYS) },
);
export const { junkValue } = fc.letrec<{ junkValue: string }>((tie) => ({
  junkValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(
      fc.constantFrom(...JUNK_SCALARS),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(json),
      hostileString.map(json),
    ),
    fc.array(tie('junkValue'), { maxLength: 4 }).map(jsonArray),
    fc.array(fc.tuple(junkKey, tie('junkValue')), { maxLength: 4 }).map(jsonObject),
  ),
}));

/** Arrays nested up to 40 deep (the limit is 32) and one array of 10,001 values (the limit is 10,000). */
export const deepOrWideValue = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map((depth) => '['.repeat(depth) + ']'.repeat(depth)),
  fc.integer({ min: 1, max: 40 }).map((depth) => '{"a":'.repeat(depth) + '0' + '}'.repeat(depth)),
  fc.constant(`[${'0,'.repeat(10_000)}0]`),
);
export const anyJunkValue = fc.oneof({ weight: 9, arbitrary: junkValue }, { weight: 1, arbitrary: deepOrWideValue });

// Email addresses.

export const asciiAddress = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9_+-]{1,12}(\.[a-z0-9_+-]{1,8})?$/),
    fc.stringMatching(/^[a-z0-9]{1,12}(-[a-z0-9]{1,5})?\.(com|org|io|example)$/),
  )
  .map(([local, domain]) => `${local}@${domain}`);
export const UNICODE_ADDRESSES = [
  'İ@example.com',
  'i@example.com',
  'josé@example.com',
  'ünïcödé@bücher.de',
  'Ωμέγα@example.gr',
];
/** 64 characters before the @ and 254 in all, the limits of RFC 5321. */
export const LONGEST_ADDRESS = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
/** Addresses that are valid by any reading, in mixed letter case, some beyond ASCII, now and then the longest. */
export const validAddress = fc.oneof(
  { weight: 12, arbitrary: fc.mixedCase(asciiAddress) },
  { weight: 2, arbitrary: fc.constantFrom(...UNICODE_ADDRESSES) },
  { weight: 1, arbitrary: fc.mixedCase(fc.constant(LONGEST_ADDRESS)) },
);

/** Address-shaped text with hostile characters (a lone surrogate among them) on either side of the @. */
export const hostileAddress = fc
  .tuple(
    fc.string({ unit: hostileChar, minLength: 1, maxLength: 8 }),
    fc.constantFrom('example.com', 'bücher.de'),
    fc.boolean(),
  )
  .map(([text, domain, inLocalPart]) => (inLocalPart ? `${text}@${domain}` : `ada@${text}.${domain}`));

/**
 * Addresses that no reading accepts: over the 254 characters of RFC 5321, or with a control
 * character, invisible character or quoted-string content that SMTP servers refuse.
 */
export const INVALID_ADDRESSES = [
  '',
  'billing',
  'a@b',
  '@example.com',
  'ada@',
  'a@@example.com',
  'a b@example.com',
  'Billing <billing@example.com>',
  'a@example..com',
  '.a@example.com',
  'a.@example.com',
  'a@example.com\r\nBcc: x@example.com',
  `${'x'.repeat(250)}@example.com`,
  `a${LONGEST_ADDRESS}`,
  '"a\r\nX-Injected: 1"@example.com',
  '"john doe"@example.com',
  '"a\u0000b"@example.com',
  '"a\\"b"@example.com',
  'ada@exam\u202eple.com',
  'a\u200bda@example.com',
];

// Mailboxes: an address, or one with a display name (docs/api.md#sending).

/** Display names as people write them: words (some beyond ASCII, some with dots), or quoted with commas and other specials. */
export const displayName = fc.oneof(
  fc.constantFrom(
    'Ada Lovelace',
    'Zoë Ünïcode',
    'Ωμέγα Team',
    "O'Brien",
    'Dr. Who',
    '"Lovelace, Ada"',
    '"Ops; Team <on call>"',
    '"Say \\"hi\\""',
    '"☕, coffee"',
    '""',
  ),
  fc.stringMatching(/^[A-Za-z][A-Za-z .'-]{0,20}$/),
);
/** An address, or now and then the same with a display name. */
export const validMailbox = fc.oneof(
  { weight: 3, arbitrary: validAddress },
  { weight: 1, arbitrary: fc.tuple(displayName, validAddress).map(([name, address]) => `${name} <${address}>`) },
);
/** The address part of a mailbox that was accepted, lower-cased: how repeats are found (docs/api.md#sending). */
export const addressKeyOf = (mailbox: string) => (/<([^<>]*)>\s*$/.exec(mailbox)?.[1] ?? mailbox).toLowerCase();
/** What no address field takes: the invalid addresses (but a display name, which is a mailbox now), lists, groups and broken names. */
export const INVALID_MAILBOXES = [
  ...INVALID_ADDRESSES.filter((address) => address !== 'Billing <billing@example.com>'),
  'a@example.com, b@example.com',
  'Ada <a@example.com>, Bob <b@example.com>',
  'team: a@example.com;',
  'Lovelace, Ada <ada@example.com>',
  '"Ada <ada@example.com>',
  'Ada <ada@example.com> x',
  'Ada\r\n <ada@example.com>',
  'Ada (comment) <ada@example.com>',
  'Ada <a@b>',
  'Ada <>',
  `${'N'.repeat(512 - ' <ada@example.com>'.length + 1)} <ada@example.com>`,
];
