import fc from 'fast-check';
import { RECIPIENT_STATUSES } from '../../../../src/messages/recipient-fates';
import { bootTestApp, TestApp } from '../../../support/test-app';
import { bearer, newUserId } from '../../../support/tokens';
import {
  expectFieldsPointIntoInput,
  expectNamed,
  expectPrototypeUntouched,
  expectWellFormedAnswer,
  replay,
} from '../../../support/hostile-input/checks';
import { hostileQueryString, wellFormed } from '../../../support/hostile-input/text';

/*
 * Property-based fuzzing of GET /user/stats (docs/api.md#errors, docs/api.md#reading-back): whatever the query, never a 5xx; a
 * refusal is a well-formed problem naming its parameters; where each value is known good or bad,
 * the exact outcome: the range's days (at most 366), or a 400 naming each bad parameter.
 * A failure prints fast-check's seed and path; replay it with FUZZ_SEED=<seed> FUZZ_PATH=<path>.
 */

const RUNS = 1000;
const DAY = 86_400_000;
const MAX_DAYS = 366;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dayText = (day: number) => {
  const d = new Date(day * DAY);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
};

/** One value as sent: a day the server must read (`day`), one it must refuse, or anything at all. */
type Value = { wire: string; day?: number; bad?: true };

const today = () => Math.floor(Date.now() / DAY);
const validDay = fc.oneof(
  // Near today and each other, so that ranges fit, straddle and overshoot 366 days.
  { weight: 3, arbitrary: fc.integer({ min: -800, max: 40 }).map((offset) => today() + offset) },
  // Any day ISO 8601 text can hold, from 0001-01-01 to 9999-12-31.
  { weight: 1, arbitrary: fc.integer({ min: -719_162, max: 2_932_896 }) },
);
const value: fc.Arbitrary<Value> = fc.oneof(
  { weight: 4, arbitrary: validDay.map((day) => ({ wire: dayText(day), day })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(
        '2026-02-29',
        '2026-13-01',
        '0000-12-31',
        '10000-01-01',
        '2026-1-1',
        '2026-01-01T24:00:00Z',
        '2026-01-01T12:00:00',
        '2026-01-01 12:00:00Z',
        '',
        'today',
        '-1',
        '1e400',
        '{}',
        '[]',
      )
      .map((wire): Value => ({ wire, bad: true })),
  },
  { weight: 2, arbitrary: hostileQueryString.map((wire): Value => ({ wire })) },
);
// Absent, once, or repeated (an array, which no date is).
const occurrences = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Value[]>([]) },
  { weight: 6, arbitrary: value.map((v) => [v]) },
  { weight: 1, arbitrary: fc.array(value, { minLength: 2, maxLength: 3 }) },
);
const statsQuery = fc.record({
  startDate: occurrences,
  endDate: occurrences,
  unknown: fc.option(fc.constantFrom('take', 'statuses', 'start_date', 'startdate'), { nil: undefined }),
});

/** What the server must answer, when every value is known: the days of the range, or the fields it refuses. */
function expected(query: { startDate: Value[]; endDate: Value[]; unknown?: string }) {
  const bad = (values: Value[]) => values.length > 1 || values.some((v) => v.bad);
  const known = (values: Value[]) => values.length !== 1 || values[0].day !== undefined || values[0].bad;
  if (!known(query.startDate) || !known(query.endDate)) return undefined;
  const fields = [
    ...(bad(query.startDate) ? ['startDate'] : []),
    ...(bad(query.endDate) ? ['endDate'] : []),
    ...(query.unknown ? [query.unknown] : []),
  ];
  if (fields.length > 0) return { status: 400, fields };
  const [start, end] = [query.startDate[0]?.day, query.endDate[0]?.day];
  const last = end ?? Math.max(today(), start ?? -Infinity);
  const first = start ?? Math.max(last - 29, -719_162);
  if (first > last) return { status: 400, fields: ['endDate'] };
  if (last - first + 1 > MAX_DAYS) return { status: 400, fields: [end === undefined ? 'startDate' : 'endDate'] };
  return { status: 200, first: dayText(first), last: dayText(last), days: last - first + 1 };
}

describe('hostile input to GET /user/stats (property-based)', () => {
  let t: TestApp;
  const userId = newUserId('fuzz-stats');

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '1000000' });
  });
  afterAll(() => t?.close());

  it('answers every generated query with the range asked for or a problem naming the bad parameters', async () => {
    let predicted = 0;
    await fc.assert(
      fc.asyncProperty(statsQuery, async (query) => {
        const pairs = [
          ...query.startDate.map((v) => ['startDate', v.wire]),
          ...query.endDate.map((v) => ['endDate', v.wire]),
          ...(query.unknown ? [[query.unknown, '1']] : []),
        ];
        const wire = pairs.map(([k, v]) => `${k}=${encodeURIComponent(wellFormed(v))}`).join('&');
        const response = await t.http.get(`/user/stats?${wire}`).set(bearer(userId));

        expectWellFormedAnswer(response);
        expectPrototypeUntouched();
        if (response.status === 400) {
          expect(response.body.errors?.length).toBeGreaterThan(0);
          expectFieldsPointIntoInput(response.body.errors, ['startDate', 'endDate', ...pairs.map(([k]) => k)]);
        }
        const outcome = expected(query);
        if (!outcome) return;
        predicted++;
        expect(response.status).toBe(outcome.status);
        if (outcome.status === 400) expectNamed(response.body.errors, outcome.fields!, true);
        else {
          expect([response.body.startDate, response.body.endDate, response.body.days.length]).toEqual([
            outcome.first,
            outcome.last,
            outcome.days,
          ]);
          expect(response.body.totals).toEqual({
            accepted: 0,
            byStatus: expect.any(Object),
            recipients: Object.fromEntries(RECIPIENT_STATUSES.map((fate) => [fate, 0])),
          });
        }
      }),
      { numRuns: RUNS, ...replay },
    );
    // Most runs are predicted exactly, not only checked for shape.
    expect(predicted).toBeGreaterThan(RUNS / 2);
  }, 300_000);
});
