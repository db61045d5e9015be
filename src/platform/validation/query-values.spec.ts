import { parseDateBound, toBoolean, toDateBound, toDistinctList, toInteger } from './query-values';

const iso = (date: Date | undefined) => date?.toISOString();

describe(parseDateBound.name, () => {
  it('reads a date as a whole UTC day', () => {
    expect(iso(parseDateBound('2026-03-01', 'start'))).toBe('2026-03-01T00:00:00.000Z');
    expect(iso(parseDateBound('2026-03-01', 'end'))).toBe('2026-03-01T23:59:59.999Z');
  });

  it('accepts 29 February in a leap year only', () => {
    expect(iso(parseDateBound('2024-02-29', 'start'))).toBe('2024-02-29T00:00:00.000Z');
    expect(iso(parseDateBound('2024-02-29', 'end'))).toBe('2024-02-29T23:59:59.999Z');
    expect(parseDateBound('2026-02-29', 'start')).toBeUndefined();
  });

  it('reads a date-time with an offset as the instant it names', () => {
    expect(iso(parseDateBound('2026-03-01T12:00:00+02:00', 'start'))).toBe('2026-03-01T10:00:00.000Z');
    expect(iso(parseDateBound('2026-03-01T12:00:00-05:30', 'end'))).toBe('2026-03-01T17:30:00.000Z');
    expect(iso(parseDateBound('2026-03-01T00:30:00+01:00', 'start'))).toBe('2026-02-28T23:30:00.000Z');
  });

  it('reads Z and a date-time without seconds', () => {
    expect(iso(parseDateBound('2026-03-01T12:00Z', 'start'))).toBe('2026-03-01T12:00:00.000Z');
    expect(iso(parseDateBound('2026-03-01T12:00:00Z', 'end'))).toBe('2026-03-01T12:00:00.000Z');
  });

  it('keeps milliseconds and rounds finer fractions towards the inside of the range', () => {
    expect(iso(parseDateBound('2026-03-01T12:00:00.1Z', 'start'))).toBe('2026-03-01T12:00:00.100Z');
    expect(iso(parseDateBound('2026-03-01T12:00:00.123Z', 'end'))).toBe('2026-03-01T12:00:00.123Z');
    expect(iso(parseDateBound('2026-03-01T12:00:00.1234Z', 'start'))).toBe('2026-03-01T12:00:00.124Z');
    expect(iso(parseDateBound('2026-03-01T12:00:00.1234Z', 'end'))).toBe('2026-03-01T12:00:00.123Z');
    expect(iso(parseDateBound('2026-03-01T12:00:00.123000Z', 'start'))).toBe('2026-03-01T12:00:00.123Z');
  });

  it.each([
    '2026-02-30',
    '2026-13-01',
    '2026-00-10',
    '2026-03-32',
    '2026-03-01T12:00:00',
    '2026-03-01T24:00:00Z',
    '2026-03-01T12:60:00Z',
    '2026-03-01T12:00:60Z',
    '2026-03-01T12:00:00+24:00',
    '2026-03-01T12:00:00+02:60',
    '2026-02-30T12:00:00Z',
    '2026-3-1',
    '20260301',
    '0000-01-01',
    'yesterday',
    '',
  ])('refuses %j', (text) => {
    expect(parseDateBound(text, 'start')).toBeUndefined();
    expect(parseDateBound(text, 'end')).toBeUndefined();
  });
});

describe(toDateBound.name, () => {
  it('turns an acceptable value into a Date and leaves anything else unchanged', () => {
    const sut = toDateBound('end');

    expect(sut({ value: '2026-03-01' })).toEqual(new Date('2026-03-01T23:59:59.999Z'));
    expect(sut({ value: '2026-02-30' })).toBe('2026-02-30');
    expect(sut({ value: ['2026-03-01'] })).toEqual(['2026-03-01']);
  });
});

describe(toInteger.name, () => {
  it.each([
    ['1', 1],
    ['0', 0],
    ['42', 42],
    ['007', 7],
  ])('reads %j as %d', (value, expected) => {
    expect(toInteger({ value })).toBe(expected);
  });

  it.each(['1.5', '1e3', '-1', ' 1', '1 ', '+1', '0x10', '', 'ten', '12345678901234567'])(
    'leaves %j unchanged',
    (value) => {
      expect(toInteger({ value })).toBe(value);
    },
  );

  it('leaves repeated parameters (arrays) and non-strings unchanged', () => {
    const array = ['1', '2'];

    expect(toInteger({ value: array })).toBe(array);
    expect(toInteger({ value: undefined })).toBeUndefined();
    expect(toInteger({ value: 3 })).toBe(3);
  });
});

describe(toBoolean.name, () => {
  it.each([
    ['true', true],
    ['false', false],
    ['1', true],
    ['0', false],
  ])('reads %j as %s', (value, expected) => {
    expect(toBoolean({ value })).toBe(expected);
  });

  it.each(['TRUE', 'yes', 'on', '', ' true', '2', 'constructor', 'toString', '__proto__'])(
    'leaves %j unchanged',
    (value) => {
      expect(toBoolean({ value })).toBe(value);
    },
  );

  it('leaves arrays unchanged', () => {
    const array = ['true'];

    expect(toBoolean({ value: array })).toBe(array);
  });
});

describe(toDistinctList.name, () => {
  it('splits on commas, trims, and drops repeats in first-seen order', () => {
    expect(toDistinctList({ value: 'sent, failed,sent' })).toEqual(['sent', 'failed']);
    expect(toDistinctList({ value: 'queued' })).toEqual(['queued']);
  });

  it('keeps blanks so that the validator can refuse them', () => {
    expect(toDistinctList({ value: 'sent,,failed' })).toEqual(['sent', '', 'failed']);
    expect(toDistinctList({ value: '' })).toEqual(['']);
  });

  it('leaves arrays and non-strings unchanged', () => {
    const array = ['sent', 'sent'];

    expect(toDistinctList({ value: array })).toBe(array);
    expect(toDistinctList({ value: undefined })).toBeUndefined();
  });
});
