import { MAX_SCHEDULE_AHEAD_MS, scheduledAtFault } from './scheduled-at.rule';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const FORMAT = 'must be an ISO 8601 date-time with an offset or Z (2026-03-01T09:00:00Z)';

describe(scheduledAtFault.name, () => {
  it.each([
    '2026-03-01T12:00:00Z',
    '2026-03-02T09:00:00+01:00',
    '2026-03-02T09:00-05:30',
    '2026-03-02t09:00:00.123456z',
    // A past moment means now.
    '2020-01-01T00:00:00Z',
  ])('accepts %s', (value) => {
    expect(scheduledAtFault(value, NOW)).toBeUndefined();
  });

  it('accepts exactly 30 days ahead and refuses one millisecond more', () => {
    const max = new Date(NOW + MAX_SCHEDULE_AHEAD_MS);
    expect(max.toISOString()).toBe('2026-03-31T12:00:00.000Z');
    expect(scheduledAtFault(max.toISOString(), NOW)).toBeUndefined();
    // The same moment written in another offset.
    expect(scheduledAtFault('2026-03-31T14:00:00.000+02:00', NOW)).toBeUndefined();
    expect(scheduledAtFault('2026-03-31T12:00:00.001Z', NOW)).toBe(
      'must be at most 30 days ahead (2026-03-31T12:00:00.000Z)',
    );
    // A fraction finer than a millisecond rounds up, never earlier than given.
    expect(scheduledAtFault('2026-03-31T12:00:00.0001Z', NOW)).toBe(
      'must be at most 30 days ahead (2026-03-31T12:00:00.000Z)',
    );
  });

  it.each<[string, unknown]>([
    ['a date alone', '2026-03-02'],
    ['no offset', '2026-03-02T09:00:00'],
    ['a day that does not exist', '2026-02-30T09:00:00Z'],
    ['an hour that does not exist', '2026-03-02T24:00:00Z'],
    ['an offset that does not exist', '2026-03-02T09:00:00+24:00'],
    ['words', 'tomorrow'],
    ['an empty string', ''],
    ['a number of milliseconds', NOW + 1000],
    ['an object', { at: '2026-03-02T09:00:00Z' }],
  ])('refuses %s', (_, value) => {
    expect(scheduledAtFault(value, NOW)).toBe(FORMAT);
  });
});
