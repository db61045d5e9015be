import fc from 'fast-check';

/*
 * Dates for GET /user/messages' queries (docs/api.md#routes): valid ones generated from an instant, so the
 * test knows which instant the server must understand, at the extremes of four-digit years too;
 * and texts that are no date.
 */

// Dates: generated from an instant, so the test knows which instant the server must understand.
const DAY = 86_400_000;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const utcDay = (d: Date) => `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;

export interface DateText {
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
const offsetMinutes = fc.oneof(
  fc.constant(0),
  fc.constantFrom(60, -300, 330, 345, 840, -720),
  fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
);

const FIRST_DAY = new Date(0).setUTCFullYear(1, 0, 1);
const LAST_DAY = Date.UTC(9999, 11, 31);
/** The first and last days a date can name, as days and as date-times (ISO 8601 text has four-digit years). */
const EXTREME_DATES: DateText[] = [
  { text: '0001-01-01', start: FIRST_DAY, end: FIRST_DAY + DAY - 1 },
  { text: '0001-01-01T00:00:00.000Z', start: FIRST_DAY, end: FIRST_DAY },
  { text: '9999-12-31', start: LAST_DAY, end: LAST_DAY + DAY - 1 },
  { text: '9999-12-31T23:59:59.999Z', start: LAST_DAY + DAY - 1, end: LAST_DAY + DAY - 1 },
];

/** `2026-03-01` (a whole UTC day) or a date-time with an offset, at millisecond, second or minute precision, or an extreme. */
export const validDate: fc.Arbitrary<DateText> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...EXTREME_DATES) },
  instant.map((ms) => {
    const start = floorTo(ms, DAY);
    return { text: utcDay(new Date(ms)), start, end: start + DAY - 1 };
  }),
  fc
    .tuple(
      instant,
      offsetMinutes,
      fc.constantFrom('ms', 's', 'min'),
      fc.constantFrom('T', 't'),
      fc.constantFrom('Z', 'z', '+00:00', '-00:00'),
    )
    .map(([ms, offset, precision, t, utc]) => {
      const local = new Date(ms + offset * 60_000);
      const seconds =
        precision === 'min'
          ? ''
          : `:${pad(local.getUTCSeconds())}${precision === 'ms' ? `.${pad(local.getUTCMilliseconds(), 3)}` : ''}`;
      const zone =
        offset === 0
          ? utc
          : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
      const text = `${utcDay(local)}${t}${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}${seconds}${zone}`;
      const shown = floorTo(local.getTime(), precision === 'ms' ? 1 : precision === 's' ? 1000 : 60_000);
      const bound = shown - offset * 60_000;
      return { text, start: bound, end: bound };
    }),
);

export const INVALID_DATES = [
  '',
  'yesterday',
  'now',
  '2026-02-30',
  '2026-02-29',
  '2026-13-01',
  '2026-00-10',
  '2026-3-1',
  '26-03-01',
  '01/03/2026',
  '2026/03/01',
  '2026-03-01T12:00:00',
  '2026-03-01T24:00:00Z',
  '2026-03-01T12:60:00Z',
  '2026-03-01T12:00:60Z',
  '2026-03-01T12:00:00+24:00',
  '2026-03-01T12:00:00+0100',
  '2026-03-01 12:00:00Z',
  '9999-12-31T23:00:00-14:00',
  '0000-01-01',
  '+002026-03-01',
  '2026-03-01Z',
  '２０２６-03-01',
  '٢٠٢٦-٠٣-٠١',
  '1772323200000',
  '2026-W09',
  '2026-060',
  'null',
  'Invalid Date',
  '2026-03-01T12:00:00.Z',
  '10000-01-01',
  '9999-12-32',
  '0001-01-01T00:00:00+00:01',
];
