import { parse as parseQueryString } from 'node:querystring';
import { MAX_PAGE } from '../../../src/platform/paging';
import { MESSAGE_STATUSES } from '../../../src/messages/message-status';
import type { QueryParam, Seeded, Verdict } from './query-cases';
import { RESERVED_KEYS } from './text';

/* GET /user/messages: what docs/api.md#routes says of a query, where it says something for sure, and the page it must answer. */

export interface ReadParam {
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

export const isPrototypeName = (name: string) => RESERVED_KEYS.includes(name) || name in Object.prototype;

function verdictOf(name: string, value: string, hint: Verdict | undefined): Verdict {
  switch (name) {
    case 'take':
      return integerVerdict(value, 100, 'invalid');
    // Beyond MAX_PAGE, skip would no longer be an exact JSON number: the implementation's cap, 400.
    case 'page':
      return integerVerdict(value, MAX_PAGE, 'invalid');
    case 'includeStatusHistory':
      return ['true', 'false', '1', '0'].includes(value) ? 'valid' : 'invalid';
    case 'statuses':
      return statusesVerdict(value);
    case 'bulkSending':
      if (value === '' || value.includes('\0') || [...value].length > 255) return 'invalid';
      return hint ?? (value.length <= 255 ? 'valid' : 'unknown');
    // Free text of 1-200 UTF-16 units without NUL. Which messages match is watched, not predicted:
    // PostgreSQL's ILIKE and JavaScript fold letter case differently beyond ASCII.
    case 'q':
      return value === '' || value.includes('\0') || value.length > 200 ? 'invalid' : 'unknown';
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
export function readQuery(sentParams: QueryParam[]): Map<string, ReadParam[]> {
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

export function expectedListOutcome(byName: Map<string, ReadParam[]>): QueryExpectation {
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
  const validBound = (values?: ReadParam[]) =>
    values?.length === 1 && values[0].verdict === 'valid' ? values[0].bound : undefined;
  const [start, end] = [validBound(byName.get('startDate')), validBound(byName.get('endDate'))];
  if (start !== undefined && end !== undefined && start > end) invalid.push('endDate');
  if (invalid.length > 0) return { status: 400, fields: invalid };
  if (allValid) return { status: 200, read: new Map([...byName].map(([name, [value]]) => [name, value])) };
  return undefined;
}

/** The page a valid query must answer, computed from the seeded messages. */
export function expectedPage(stored: (Seeded & { id: string })[], read: Map<string, ReadParam>) {
  const take = Number(read.get('take')?.value ?? 10);
  const page = Number(read.get('page')?.value ?? 1);
  const start = read.get('startDate')?.bound;
  const end = read.get('endDate')?.bound;
  const from = read.get('fromEmail')?.value.toLowerCase();
  const to = read.get('toEmail')?.value.toLowerCase();
  const statuses = read.get('statuses') && [
    ...new Set(
      read
        .get('statuses')!
        .value.split(',')
        .map((s) => s.trim()),
    ),
  ];
  const bulk = read.get('bulkSending')?.value;
  const matching = stored
    .filter((m) => {
      const at = Date.parse(m.sentAt);
      return (
        (start === undefined || at >= start) &&
        (end === undefined || at <= end) &&
        (from === undefined || m.sender.toLowerCase() === from) &&
        (to === undefined || m.recipients.some((r) => r.toLowerCase() === to)) &&
        (statuses === undefined || statuses.includes(m.status)) &&
        (bulk === undefined || m.bulkSendingId === bulk)
      );
    })
    .sort((a, b) => b.sentAt.localeCompare(a.sentAt) || b.id.localeCompare(a.id));
  const skip = (page - 1) * take;
  const totalPages = Math.ceil(matching.length / take);
  return {
    ids: matching.slice(skip, skip + take).map((m) => m.id),
    envelope: {
      take,
      page,
      skip,
      total: matching.length,
      totalPages,
      hasNext: page < totalPages,
      startDate: start === undefined ? null : new Date(start).toISOString(),
      endDate: end === undefined ? null : new Date(end).toISOString(),
      fromEmail: from ?? null,
      toEmail: to ?? null,
      statuses: statuses?.join(',') ?? null,
      bulkSending: bulk ?? null,
      // A predicted page never has a search (its matches are watched, see verdictOf).
      q: null,
    },
  };
}
