import fc from 'fast-check';
import { MAX_RECIPIENTS, SendCase, sendCaseOf, validSendBody } from './send-bodies';
import {
  anyJunkValue,
  Entry,
  hostileAddress,
  hostileChar,
  hostileString,
  INVALID_MAILBOXES,
  json,
  jsonArray,
  jsonObject,
  junkValue,
  loneSurrogate,
  printableText,
  REQUIRED_SEND_FIELDS,
  RESERVED_KEYS,
  SEND_FIELDS,
  validMailbox,
} from './text';

/*
 * POST /sender/send: valid bodies with one or two fields broken, dropped, added or repeated,
 * and where the change surely breaks a field, which field a 400 must name. Values one past each
 * limit are among the breaks.
 */

// SPEC §4: a subject needs a character that is not white space.
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
// SPEC §4's reserved names in any letter case, the Content-* and List-Unsubscribe* families as prefixes.
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

// Values that are wrong for a field by any reading of SPEC §4 (null counts as missing, so it is
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
const DISTINCT_ADDRESSES = Array.from({ length: MAX_RECIPIENTS + 1 }, (_, i) => `user${i}@example.com`);
/** A list of mailboxes with one that no reading accepts among them. */
const withInvalidMailbox = fc
  .tuple(fc.array(validMailbox, { maxLength: 2 }), fc.constantFrom(...INVALID_MAILBOXES))
  .map(([good, bad]) => json([...good, bad]));
const attachment = (fields: Record<string, unknown>) => jsonArray([json(fields)]);

const INVALID_VALUES: Record<string, fc.Arbitrary<string>> = {
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

/** One change to a valid body; `breaks` names the field a 400 must name, when the change surely breaks one. */
interface Mutation {
  kind: 'set' | 'drop' | 'duplicate' | 'header';
  key: string;
  /** A key dropped besides the change to `key`. */
  alsoDrop?: string;
  value?: string;
  breaks?: string;
}

const invalidValueMutation: fc.Arbitrary<Mutation> = fc.oneof(
  ...Object.entries(INVALID_VALUES).map(([key, values]) =>
    values.map((value): Mutation => ({ kind: 'set', key, value, breaks: key })),
  ),
  // MAX_RECIPIENTS bounds to, cc and bcc together: the refusal names `to`.
  fc
    .constantFrom('cc', 'bcc')
    .map((key): Mutation => ({ kind: 'set', key, value: json(DISTINCT_ADDRESSES), breaks: 'to' })),
);
const missingFieldMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom(...REQUIRED_SEND_FIELDS).map((key): Mutation => ({ kind: 'drop', key, breaks: key })),
  // html or text (SPEC §4): with neither (a null one is none), the refusal names html.
  fc.constant<Mutation>({ kind: 'drop', key: 'html', alsoDrop: 'text', breaks: 'html' }),
  fc.constant<Mutation>({ kind: 'set', key: 'html', value: 'null', alsoDrop: 'text', breaks: 'html' }),
);
const unknownKey = fc
  .oneof(
    fc.string({ unit: hostileChar, maxLength: 16 }),
    fc.constantFrom(
      'Cc',
      'reply_to',
      'Subject',
      'SUBJECT',
      ' to',
      'from',
      'id',
      'userId',
      'status',
      'toString',
      'hasOwnProperty',
      'a.b',
      '',
    ),
  )
  .filter((key) => !SEND_FIELDS.includes(key) && !RESERVED_KEYS.includes(key) && !key.includes('\0'));
const unknownFieldMutation: fc.Arbitrary<Mutation> = fc
  .tuple(unknownKey, junkValue)
  .map(([key, value]) => ({ kind: 'set', key, value, breaks: key }));
/** A reserved key at the top or nested where objects are allowed: __proto__, constructor or prototype. */
const reservedKeyMutation: fc.Arbitrary<Mutation> = fc
  .tuple(
    fc.constantFrom(...RESERVED_KEYS),
    fc.oneof(junkValue, fc.constant('{"polluted":"yes"}'), fc.constant('{"prototype":{"polluted":"yes"}}')),
    fc.constantFrom('top', 'customPayload', 'webhook', 'attachments', 'deep'),
  )
  .map(([reserved, value, where]): Mutation => {
    switch (where) {
      case 'customPayload':
        return {
          kind: 'set',
          key: 'customPayload',
          value: jsonObject([
            ['a', '"b"'],
            [reserved, value],
          ]),
          breaks: `customPayload.${reserved}`,
        };
      case 'webhook':
        return {
          kind: 'set',
          key: 'webhook',
          value: jsonObject([
            ['url', '"https://example.com/h"'],
            [reserved, value],
          ]),
          breaks: `webhook.${reserved}`,
        };
      case 'attachments':
        return {
          kind: 'set',
          key: 'attachments',
          value: jsonArray([
            jsonObject([
              ['fileName', '"a.txt"'],
              ['content', '""'],
              [reserved, value],
            ]),
          ]),
          breaks: `attachments[0].${reserved}`,
        };
      case 'deep':
        return {
          kind: 'set',
          key: 'extra',
          value: jsonObject([['a', jsonArray([jsonObject([[reserved, value]])])]]),
          breaks: `extra.a[0].${reserved}`,
        };
      default:
        return { kind: 'set', key: reserved, value, breaks: reserved };
    }
  });
/** PostgreSQL text cannot hold NUL: it must be refused, never reach an INSERT. */
const nulMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc
    .constantFrom('subject', 'html', 'sender', 'bulkSendingId', 'contactId')
    .map((key): Mutation => ({ kind: 'set', key, value: json('a\u0000b'), breaks: key })),
  fc.constant<Mutation>({ kind: 'set', key: 'to', value: json(['ada\u0000@example.com']), breaks: 'to' }),
  fc.constant<Mutation>({ kind: 'set', key: 'customPayload', value: json({ k: 'v\u0000' }), breaks: 'customPayload' }),
  fc.constant<Mutation>({
    kind: 'set',
    key: 'customPayload',
    value: json({ 'k\u0000': 'v' }),
    breaks: 'customPayload',
  }),
);
/** The key again, later in the text, with a bad value: JSON.parse keeps the last one. */
const duplicateKeyMutation: fc.Arbitrary<Mutation> = invalidValueMutation.map((m) => ({ ...m, kind: 'duplicate' }));
/**
 * A lone surrogate (sent as a JSON escape, the only way to send one) in a string, a key or an
 * address. Refusing it and storing U+FFFD are both fair; a 500 or a half-written record is not.
 */
const loneSurrogateMutation: fc.Arbitrary<Mutation> = fc
  .tuple(
    loneSurrogate,
    fc.constantFrom(
      'subject',
      'html',
      'sender',
      'to',
      'bulkSendingId',
      'contactId',
      'customPayload value',
      'customPayload key',
      'fileName',
      'webhook',
      'unknown key',
    ),
  )
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
  fc
    .tuple(fc.constantFrom(...SEND_FIELDS), anyJunkValue)
    .map(([key, value]): Mutation => ({ kind: 'set', key, value })),
  hostileAddress.map((address): Mutation => ({ kind: 'set', key: 'sender', value: json(address) })),
  fc
    .array(hostileAddress, { minLength: 1, maxLength: 3 })
    .map((addresses): Mutation => ({ kind: 'set', key: 'to', value: json(addresses) })),
);

/** An Idempotency-Key header that is empty, 256 characters long, or not visible ASCII (SPEC §4). */
const idempotencyKeyMutation: fc.Arbitrary<Mutation> = fc
  .constantFrom('', 'K'.repeat(256), 'clé', 'a\tb')
  .map((value) => ({ kind: 'header', key: 'Idempotency-Key', value, breaks: 'Idempotency-Key' }));

const mutation = fc.oneof(
  { weight: 6, arbitrary: invalidValueMutation },
  { weight: 1, arbitrary: missingFieldMutation },
  { weight: 2, arbitrary: unknownFieldMutation },
  { weight: 2, arbitrary: reservedKeyMutation },
  { weight: 1, arbitrary: nulMutation },
  { weight: 1, arbitrary: loneSurrogateMutation },
  { weight: 1, arbitrary: duplicateKeyMutation },
  { weight: 3, arbitrary: junkFieldMutation },
  { weight: 1, arbitrary: idempotencyKeyMutation },
);

function applyMutation(given: Entry[], { kind, key, alsoDrop, value }: Mutation): Entry[] {
  const entries = given.filter(([k]) => k !== alsoDrop);
  if (kind === 'header') return entries;
  if (kind === 'drop') return entries.filter(([k]) => k !== key);
  if (kind === 'duplicate') return [...entries, [key, value!]];
  return entries.some(([k]) => k === key)
    ? entries.map(([k, v]) => (k === key ? [k, value!] : [k, v]))
    : [...entries, [key, value!]];
}

/** A valid body with one or two fields broken, dropped, added or repeated, or a bad Idempotency-Key beside it. */
export const nearValidSendCase: fc.Arbitrary<SendCase> = fc
  .tuple(validSendBody, fc.array(mutation, { minLength: 1, maxLength: 2 }), fc.boolean())
  .map(([body, mutations, spaced]) => {
    const entries = mutations.reduce(
      applyMutation,
      Object.entries(body).map(([k, v]): Entry => [k, json(v)]),
    );
    const certain = mutations.every((m) => m.breaks !== undefined);
    return sendCaseOf({
      family: 'near-valid',
      raw: jsonObject(entries, spaced ? ',\n  ' : ','),
      idempotencyKey: mutations.find((m) => m.kind === 'header')?.value,
      expect: certain ? { status: 400, fields: mutations.map((m) => m.breaks!) } : undefined,
    });
  });
