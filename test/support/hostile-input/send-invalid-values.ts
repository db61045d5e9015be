import fc from 'fast-check';
import { MAX_RECIPIENTS } from './send-bodies';
import { hostileString, INVALID_MAILBOXES, json, jsonArray, jsonObject, printableText, validMailbox } from './text';

/*
 * POST /sender/send: for each field, values no reading of docs/api.md#sending accepts, one past each limit
 * among them (send-mutations.ts puts them into valid bodies).
 */

// docs/api.md#sending: a subject needs a character that is not white space.
const BLANK_SUBJECTS = [' ', '   ', '\t', '\u00a0\u3000', '\ufeff \u2003'];

// One past each limit, built once.
const ONE_PAST = {
  subjects: ['s'.repeat(999), '😀'.repeat(999)],
  html: json(`${'é'.repeat((5 * 1024 * 1024) / 2)}x`),
  ids: ['b'.repeat(256), '𝕓'.repeat(256)],
  payloads: [
    Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
    { ['𝕂'.repeat(101)]: 'v' },
    { a: '😀'.repeat(1001) },
  ],
  url: `https://hooks.example.com/${'p'.repeat(2049 - 'https://hooks.example.com/'.length)}`,
  text: json(`${'é'.repeat((5 * 1024 * 1024) / 2)}x`),
  headers: [
    json(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v']))),
    json({ [`X-${'n'.repeat(99)}`]: 'v' }),
    json({ 'X-Long': '😀'.repeat(999) }),
  ],
  contentType: `${'a'.repeat(127)}/${'b'.repeat(128)}`,
};
// docs/api.md#sending's reserved names in any letter case, the Content-* and List-Unsubscribe* families as prefixes.
const RESERVED_HEADERS = [
  'From',
  'to',
  'CC',
  'Bcc',
  'reply-to',
  'Subject',
  'DATE',
  'Message-ID',
  'mime-version',
  'Content-Type',
  'content-x-anything',
  'DKIM-Signature',
  'Return-Path',
  'Received',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
];

// Values that are wrong for a field by any reading of docs/api.md#sending (null counts as missing, so it is
// wrong for required fields only: an optional field given null is simply absent).
const notAString = fc.oneof(
  fc.constantFrom(
    'true',
    'false',
    '0',
    '-1',
    '1.5',
    '1e400',
    '123456789012345678901234567890',
    '[]',
    '{}',
    '[""]',
    '{"a":"b"}',
  ),
  fc.integer().map(String),
  fc.array(hostileString, { minLength: 1, maxLength: 3 }).map(json),
);
const notAnObject = fc.constantFrom('"x"', '""', '0', 'true', '[]', '["a"]', '[{}]');
const notAnArray = fc.constantFrom('"x"', '""', '0', 'true', '{}', '{"0":"a@example.com"}');
const withLineBreak = fc
  .tuple(printableText(10), fc.constantFrom('\r', '\n', '\r\n', '\n\r'), printableText(10))
  .map((parts) => parts.join(''));
export const DISTINCT_ADDRESSES = Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `user${i}@example.com`);
/** A list of mailboxes with one that no reading accepts among them. */
const withInvalidMailbox = fc
  .tuple(fc.array(validMailbox, { maxLength: 2 }), fc.constantFrom(...INVALID_MAILBOXES))
  .map(([good, bad]) => json([...good, bad]));
export const attachment = (fields: Record<string, unknown>) => jsonArray([json(fields)]);

export const INVALID_VALUES: Record<string, fc.Arbitrary<string>> = {
  subject: fc.oneof(
    notAString,
    fc.constantFrom('null', '""', ...ONE_PAST.subjects.map(json)),
    withLineBreak.map(json),
    fc.constantFrom(...BLANK_SUBJECTS).map(json),
  ),
  // null is as good as absent, which text may make valid: missingFieldMutation sends it without text.
  html: fc.oneof(notAString, fc.constantFrom('""', ONE_PAST.html)),
  to: fc.oneof(
    notAnArray,
    fc.constantFrom('null', '[]', '[null]', '[1]', '[["a@example.com"]]', json(DISTINCT_ADDRESSES)),
    withInvalidMailbox,
  ),
  sender: fc.oneof(notAString, fc.constant('null'), fc.constantFrom(...INVALID_MAILBOXES).map(json)),
  cc: fc.oneof(notAnArray, fc.constantFrom('[null]', '[1]', '[["a@example.com"]]'), withInvalidMailbox),
  bcc: fc.oneof(notAnArray, fc.constantFrom('[null]', '[1]', '[["a@example.com"]]'), withInvalidMailbox),
  replyTo: fc.oneof(
    notAnArray,
    fc.constantFrom('[]', '[null]', '[1]', json(DISTINCT_ADDRESSES.slice(0, 11))),
    withInvalidMailbox,
  ),
  text: fc.oneof(notAString, fc.constantFrom('""', ONE_PAST.text)),
  headers: fc.oneof(
    notAnObject,
    fc.constantFrom(...ONE_PAST.headers),
    fc.constantFrom(...RESERVED_HEADERS).map((name) => json({ 'X-Fine': 'v', [name]: 'v' })),
    fc.constantFrom('X A', 'X-A:B', 'X-Ünï', '', 'X-\u0000').map((name) => json({ [name]: 'v' })),
    fc
      .constantFrom('', ' ', '\t', 'a\r\nBcc: x@example.com', 'a\nb', 'a\u0000b', 'a\u0007b')
      .map((value) => json({ 'X-A': value })),
    fc.constantFrom('1', 'null', 'true', '["v"]', '{"v":"w"}').map((value) => jsonObject([['X-A', value]])),
  ),
  priority: fc.oneof(notAString, fc.constantFrom('urgent', 'HIGH', 'Normal', '', ' low', 'low ', 'lów').map(json)),
  bulkSendingId: fc.oneof(notAString, fc.constantFrom('""', ...ONE_PAST.ids.map(json))),
  contactId: fc.oneof(notAString, fc.constantFrom('""', ...ONE_PAST.ids.map(json))),
  customPayload: fc.oneof(
    notAnObject,
    fc.constantFrom('{"a":1}', '{"a":true}', '{"a":null}', '{"a":{"b":"c"}}', '{"a":["x"]}', '{"":"x"}'),
    fc.constantFrom(...ONE_PAST.payloads.map(json)),
  ),
  scheduledAt: fc.oneof(
    notAString,
    fc.constantFrom(
      '""',
      '"tomorrow"',
      '"2026-12-01"',
      '"2026-12-01T09:00:00"',
      '"2026-02-30T09:00:00Z"',
      '"2026-12-01T24:00:00Z"',
      '"2026-12-01T09:00:00+24:00"',
    ),
    // Past the 30-day bound.
    fc.constant(json(new Date(Date.now() + 31 * 86_400_000).toISOString())),
  ),
  webhook: fc.constantFrom(
    '"https://example.com/hook"',
    '0',
    'true',
    '[]',
    '[{"url":"https://example.com/hook"}]',
    '{}',
    '{"status":["sent"]}',
    '{"url":"/hook"}',
    '{"url":"ftp://example.com/hook"}',
    '{"url":"javascript:alert(1)"}',
    '{"url":"https://example.com/h","status":"sent"}',
    '{"url":"https://example.com/h","status":["delivered"]}',
    '{"url":"https://user:secret@example.com/h"}',
    '{"url":"http://127.0.0.1/h"}',
    '{"url":"http://[::1]/h"}',
    // IsUrl takes it, the WHATWG URL parser refuses it (an invalid punycode label).
    '{"url":"https://xn--a.example/h"}',
    json({ url: ONE_PAST.url }),
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
      attachment({ fileName: '📄'.repeat(256), content: '' }),
      attachment({ fileName: 'a.txt', content: 'not base64!' }),
      attachment({ fileName: 'a.txt', content: 'aGk' }),
      attachment({ fileName: 'a.txt', content: '-_-_' }),
      attachment({ fileName: 'a.txt', content: 42 }),
      attachment({ fileName: 'a.txt' }),
      attachment({ content: '' }),
      attachment({ fileName: 'a.txt', content: '', url: 'https://example.com/x' }),
      json(Array.from({ length: 21 }, () => ({ fileName: 'a.txt', content: '' }))),
      attachment({ fileName: 'a.txt', content: '', contentType: 'text' }),
      attachment({ fileName: 'a.txt', content: '', contentType: 'text/plain; charset=latin1' }),
      attachment({ fileName: 'a.txt', content: '', contentType: 'text/plain\r\nX-Injected: 1' }),
      attachment({ fileName: 'a.txt', content: '', contentType: '' }),
      attachment({ fileName: 'a.txt', content: '', contentType: 42 }),
      attachment({ fileName: 'a.txt', content: '', contentType: ONE_PAST.contentType }),
    ),
  ),
  attachmentIds: fc.oneof(
    notAnArray,
    fc.constantFrom('[1]', '["abc"]', '[null]'),
    fc.uuid().map((id) => json([id])),
    fc.uniqueArray(fc.uuid(), { minLength: 21, maxLength: 21 }).map(json),
  ),
};
