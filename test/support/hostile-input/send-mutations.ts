import fc from 'fast-check';
import { SendCase, sendCaseOf, validSendBody } from './send-bodies';
import { DISTINCT_ADDRESSES, attachment, INVALID_VALUES } from './send-invalid-values';
import {
  anyJunkValue,
  Entry,
  hostileAddress,
  hostileChar,
  json,
  jsonArray,
  jsonObject,
  junkValue,
  loneSurrogate,
  REQUIRED_SEND_FIELDS,
  RESERVED_KEYS,
  SEND_FIELDS,
} from './text';

/*
 * POST /sender/send: valid bodies with one or two fields broken, dropped, added or repeated,
 * and where the change surely breaks a field, which field a 400 must name. Values one past each
 * limit are among the breaks.
 */

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
  // html or text (docs/api.md#sending): with neither (a null one is none), the refusal names html.
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

/** An Idempotency-Key header that is empty, 256 characters long, or not visible ASCII (docs/api.md#sending). */
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
