/**
 * Parsers for query-string values. Each returns the typed value when the text is acceptable and
 * the text unchanged otherwise, so that the validator after it reports the field as invalid.
 */

export function toInteger({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
}

const BOOLEANS: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

export function toBoolean({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && Object.hasOwn(BOOLEANS, value) ? BOOLEANS[value] : value;
}

/** `a,b,a` → `['a', 'b']`; blanks are kept so that the validator can refuse them. */
export function toDistinctList({ value }: { value: unknown }): unknown {
  return typeof value === 'string' ? [...new Set(value.split(',').map((s) => s.trim()))] : value;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2}))$/i;

/**
 * An ISO 8601 date (a whole UTC day) or date-time with an offset, as the instant that bounds a
 * range inclusively: a date starts at its first millisecond and ends at its last.
 */
export function parseDateBound(text: string, bound: 'start' | 'end'): Date | undefined {
  const date = DATE.exec(text);
  if (date) {
    const [y, mo, d] = date.slice(1).map(Number);
    const start = utcMillis(y, mo, d, 0, 0, 0);
    if (start === undefined) return undefined;
    return new Date(bound === 'start' ? start : start + 86_400_000 - 1);
  }
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, oh, om] = match;
  const local = utcMillis(+y, +mo, +d, +h, +mi, +s);
  if (local === undefined || +oh > 23 || +om > 59) return undefined;
  const offsetMinutes = zulu ? 0 : (sign === '-' ? -1 : 1) * (+oh * 60 + +om);
  // Stored times have millisecond precision: a start bound inside a millisecond begins at the next one.
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  const beyond = bound === 'start' && /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  const instant = new Date(local - offsetMinutes * 60_000 + millis + beyond);
  // An offset can carry a date past year 9999 or before year 1, which ISO 8601 text cannot echo.
  const year = instant.getUTCFullYear();
  return year >= 1 && year <= 9999 ? instant : undefined;
}

/**
 * An ISO 8601 date-time with an offset or `Z` (not a date alone): a moment, not a day. A fraction
 * finer than the stored milliseconds rounds up, so the moment is never earlier than the one given.
 */
export function parseDateTime(text: string): Date | undefined {
  return DATE_TIME.test(text) ? parseDateBound(text, 'start') : undefined;
}

export function toDateBound(bound: 'start' | 'end') {
  return ({ value }: { value: unknown }): unknown =>
    typeof value === 'string' ? (parseDateBound(value, bound) ?? value) : value;
}

function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number): number | undefined {
  if (y < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, 0);
  const sameDay = date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
  return sameDay ? date.getTime() : undefined;
}
