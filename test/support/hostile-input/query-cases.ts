import fc from 'fast-check';
import { MAX_PAGE } from '../../../src/platform/paging';
import { MESSAGE_STATUSES } from '../../../src/messages/message-status';
import type { MessageStatus } from '../../../src/messages/message-status';
import {
  hostileChar,
  hostileQueryString,
  INVALID_ADDRESSES,
  printableText,
  QUERY_FIELDS,
  validAddress,
  wellFormed,
} from './text';
import { INVALID_DATES, validDate } from './query-dates';

/*
 * GET /user/messages: what a case is, and queries valid, near-valid, repeated and junk, each
 * parameter now and then at its limit (page MAX_PAGE, 255 characters, the years 1 and 9999).
 */

export type Verdict = 'valid' | 'invalid' | 'unknown';

/** One `name=value` pair as sent; `hint` says what the generator knows of its value, `bound` the instant a valid date stands for. */
export interface QueryParam {
  wire: string;
  hint?: Verdict;
  bound?: number;
}

export interface QueryCase {
  family: string;
  params: QueryParam[];
}

/** Percent-encodes what a well-behaved client would (a lone surrogate becomes U+FFFD, as browsers do). */
const encode = (text: string): string => encodeURIComponent(wellFormed(text));
const pair = (name: string, value: string, extra: Omit<QueryParam, 'wire'> = {}): QueryParam => ({
  wire: `${encode(name)}=${encode(value)}`,
  ...extra,
});

const validStatuses = fc
  .tuple(
    fc.array(fc.constantFrom(...MESSAGE_STATUSES), { minLength: 1, maxLength: 6 }),
    fc.constantFrom(',', ', ', ' ,'),
  )
  .map(([statuses, separator]) => statuses.join(separator));

// The list user's messages; valid queries pick these addresses and bulk ids often, so that filters match.
export interface Seeded {
  sentAt: string;
  sender: string;
  recipients: string[];
  status: MessageStatus;
  bulkSendingId: string | null;
}
export const SEEDED: Seeded[] = [
  {
    sentAt: '2025-12-31T23:30:00.000Z',
    sender: 'news@example.com',
    recipients: ['Ada@Example.com'],
    status: 'queued',
    bulkSendingId: null,
  },
  {
    sentAt: '2026-01-01T00:00:00.000Z',
    sender: 'news@example.com',
    recipients: ['ada@example.com', 'grace@example.com'],
    status: 'sent',
    bulkSendingId: 'spring',
  },
  {
    sentAt: '2026-01-15T08:00:00.123Z',
    sender: 'Billing@Example.com',
    recipients: ['linus@example.com'],
    status: 'failed',
    bulkSendingId: 'spring',
  },
  {
    sentAt: '2026-02-01T12:00:00.000Z',
    sender: 'billing@example.com',
    recipients: ['İ@example.com'],
    status: 'deferred',
    bulkSendingId: 'Spring',
  },
  {
    sentAt: '2026-02-28T23:59:59.999Z',
    sender: 'İ@example.com',
    recipients: ['grace@example.com'],
    status: 'sending',
    bulkSendingId: 'summer 🌞',
  },
  {
    sentAt: '2026-03-01T00:00:00.000Z',
    sender: 'news@example.com',
    recipients: ['i@example.com'],
    status: 'sent',
    bulkSendingId: null,
  },
  {
    sentAt: '2026-03-01T00:00:00.000Z',
    sender: 'josé@example.com',
    recipients: ['ada@example.com'],
    status: 'queued',
    bulkSendingId: 'spring',
  },
  {
    sentAt: '2026-03-15T18:45:30.500Z',
    sender: 'news@example.com',
    recipients: ['ünïcödé@bücher.de'],
    status: 'failed',
    bulkSendingId: 'summer 🌞',
  },
  {
    sentAt: '2026-03-31T23:59:59.999Z',
    sender: 'Billing@Example.com',
    recipients: ['grace@example.com', 'linus@example.com'],
    status: 'sent',
    bulkSendingId: null,
  },
  {
    sentAt: '2026-04-01T00:00:00.000Z',
    sender: 'news@example.com',
    recipients: ['ada@example.com'],
    status: 'queued',
    bulkSendingId: 'spring',
  },
  {
    sentAt: '2026-04-02T10:00:00.000Z',
    sender: 'billing@example.com',
    recipients: ['ada@example.com'],
    status: 'deferred',
    bulkSendingId: 'summer',
  },
  {
    sentAt: '2026-04-03T10:00:00.000Z',
    sender: 'news@example.com',
    recipients: ['grace@example.com'],
    status: 'sent',
    bulkSendingId: 'spring',
  },
];
const seededAddress = fc.oneof(
  fc.mixedCase(
    fc.constantFrom(
      ...new Set(SEEDED.flatMap((m) => [m.sender, ...m.recipients].filter((a) => /^[\x20-\x7e]+$/.test(a)))),
    ),
  ),
  fc.constantFrom('İ@example.com', 'josé@example.com', 'ünïcödé@bücher.de'),
);

/** A query every reading of docs/api.md#routes accepts, with the instants its dates stand for. */
const validQueryParams: fc.Arbitrary<QueryParam[]> = fc
  .record(
    {
      take: fc.integer({ min: 1, max: 100 }),
      page: fc.oneof(
        { weight: 10, arbitrary: fc.integer({ min: 1, max: 3 }) },
        { weight: 2, arbitrary: fc.integer({ min: 1, max: MAX_PAGE }) },
        { weight: 1, arbitrary: fc.constant(MAX_PAGE) },
      ),
      includeStatusHistory: fc.constantFrom('true', 'false', '1', '0'),
      range: fc.tuple(fc.option(validDate, { nil: undefined }), fc.option(validDate, { nil: undefined })),
      fromEmail: fc.oneof(seededAddress, validAddress),
      toEmail: fc.oneof(seededAddress, validAddress),
      statuses: validStatuses,
      bulkSending: fc.oneof(
        fc.constantFrom('spring', 'Spring', 'summer', 'summer 🌞', 'b'.repeat(255), '𝕓'.repeat(255)),
        printableText(30, 255),
      ),
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
    for (const [name, value] of Object.entries(strings))
      if (value !== undefined) params.push(pair(name, value, { hint: 'valid' }));
    return params;
  });

const PERCENT_JUNK = [
  '%',
  '%%',
  '%zz',
  '%2',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%AF',
  '%FF%FE',
  '%00',
  '%uD800',
  '%%32%35',
  '%252e',
  '%0D%0A',
  '%F0%9F%98',
  '%EF%BB%BF1',
  '+',
  '%2B1',
  '1%2C2',
];
const INTEGER_JUNK = [
  '0',
  '101',
  '-1',
  '-0',
  '1.5',
  '1.0',
  '1e3',
  '0x10',
  ' 1',
  '1 ',
  '+1',
  '',
  'ten',
  '１',
  '٣',
  '99999999999999999999',
  'NaN',
  'Infinity',
  'null',
  '[]',
  '1,2',
  '007',
  String(MAX_PAGE + 1),
  String(Number.MAX_SAFE_INTEGER),
];

/** A bad or doubtful value for one named parameter, percent-encoded or percent-junk. */
const junkQueryParam: fc.Arbitrary<QueryParam> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('take', 'page'),
      fc.oneof(
        fc.constantFrom(...INTEGER_JUNK),
        fc.integer({ min: -1e12, max: 1e12 }).map(String),
        fc.double().map(String),
        hostileQueryString,
      ),
    )
    .map(([name, value]) => pair(name, value)),
  fc
    .tuple(
      fc.constant('includeStatusHistory'),
      fc.oneof(
        fc.constantFrom('TRUE', 'True', 'yes', 'no', 'on', '', '2', '-1', '01', 'true ', 't'),
        hostileQueryString,
      ),
    )
    .map(([name, value]) => pair(name, value)),
  fc
    .tuple(fc.constantFrom('startDate', 'endDate'), fc.constantFrom(...INVALID_DATES))
    .map(([name, value]) => pair(name, value, { hint: 'invalid' })),
  fc
    .tuple(
      fc.constantFrom('startDate', 'endDate', 'fromEmail', 'toEmail', 'statuses', 'bulkSending', 'q'),
      hostileQueryString,
    )
    .map(([name, value]) => pair(name, value)),
  fc
    .tuple(fc.constantFrom('fromEmail', 'toEmail'), fc.constantFrom(...INVALID_ADDRESSES))
    .map(([name, value]) => pair(name, value, { hint: 'invalid' })),
  fc
    .tuple(
      fc.constant('statuses'),
      fc.constantFrom(
        '',
        ',',
        'sent,',
        ',sent',
        'sent,,failed',
        'SENT',
        'delivered',
        'sent;failed',
        'sent failed',
        'queued,bounced',
      ),
    )
    .map(([name, value]) => pair(name, value)),
  fc
    .tuple(fc.constant('bulkSending'), fc.constantFrom('', 'b'.repeat(256), '𝕓'.repeat(256), 'a\u0000b'))
    .map(([name, value]) => pair(name, value)),
  // Percent-encoding junk goes on the wire as it is.
  fc
    .tuple(fc.constantFrom(...QUERY_FIELDS), fc.constantFrom(...PERCENT_JUNK))
    .map(([name, value]) => ({ wire: `${name}=${value}` })),
);

/** Parameters the endpoint does not have: typos, other APIs' names, array syntax, hostile names, bare keys. */
const unknownQueryParam: fc.Arbitrary<QueryParam> = fc.oneof(
  fc
    .tuple(
      fc
        .oneof(
          fc.constantFrom(
            'limit',
            'offset',
            'sort',
            'q',
            'Take',
            'TAKE',
            'take ',
            ' take',
            'userId',
            'user_id',
            'id',
            'toString',
            'hasOwnProperty',
            'valueOf',
          ),
          fc.string({ unit: hostileChar, minLength: 1, maxLength: 12 }),
        )
        .filter((name) => !QUERY_FIELDS.includes(name)),
      fc.oneof(fc.constantFrom('1', ''), hostileQueryString),
    )
    .map(([name, value]) => pair(name, value)),
  fc
    .constantFrom(
      'statuses[]=sent',
      'statuses[0]=sent',
      'take[]=1',
      'take[0]=1',
      'page[$gt]=1',
      'fromEmail[]=ada@example.com',
      'a[b][c]=d',
      '__proto__[polluted]=yes',
      'constructor[prototype][polluted]=yes',
      '__proto__=x',
      'constructor=x',
      'prototype=x',
      '=x',
      '=',
      '&&',
      'x',
    )
    .map((wire) => ({ wire })),
);

/** A valid parameter again with another value (`take=1&take=2`), or its name percent-encoded (`%74ake`). */
const repeatedParams: fc.Arbitrary<QueryParam[]> = fc
  .tuple(
    validQueryParams.filter((params) => params.length > 0),
    fc.nat(),
    fc.boolean(),
  )
  .chain(([params, i, encodedName]) => {
    const chosen = params[i % params.length];
    const name = chosen.wire.split('=')[0];
    const again = encodedName
      ? fc.constant({ ...chosen, wire: chosen.wire.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`) })
      : junkQueryParam.filter((p) => p.wire.startsWith(`${name}=`));
    return again.map((p) => [...params, p]);
  });

/** startDate strictly after endDate: 400 naming endDate. */
const reversedRange: fc.Arbitrary<QueryParam[]> = fc
  .tuple(validDate, validDate)
  .filter(([a, b]) => a.end < b.start)
  .map(([earlier, later]) => [
    pair('startDate', later.text, { hint: 'valid', bound: later.start }),
    pair('endDate', earlier.text, { hint: 'valid', bound: earlier.end }),
  ]);

export const queryCase: fc.Arbitrary<QueryCase> = fc.oneof(
  { weight: 4, arbitrary: validQueryParams.map((params) => ({ family: 'valid', params })) },
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        validQueryParams,
        fc.array(fc.oneof({ weight: 3, arbitrary: junkQueryParam }, { weight: 1, arbitrary: unknownQueryParam }), {
          minLength: 1,
          maxLength: 2,
        }),
      )
      .map(([valid, junk]) => {
        // A junk value replaces the valid one of the same name, so that the case is not also a repeat.
        const names = new Set(junk.map((p) => p.wire.split('=')[0]));
        return { family: 'near-valid', params: [...valid.filter((p) => !names.has(p.wire.split('=')[0])), ...junk] };
      }),
  },
  { weight: 1, arbitrary: repeatedParams.map((params) => ({ family: 'repeated', params })) },
  { weight: 1, arbitrary: reversedRange.map((params) => ({ family: 'reversed range', params })) },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(junkQueryParam, unknownQueryParam), { maxLength: 6 })
      .map((params) => ({ family: 'junk', params })),
  },
);
