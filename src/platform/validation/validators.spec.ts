import 'reflect-metadata';
import { validateSync } from 'class-validator';
import { leastCpuMsOf } from '../../../test/support/cpu-time';
import { hasLength, HasNoLineBreaks, IsNotBlank, isStringRecord, IsStandardBase64, MaxUtf8Bytes } from './validators';

// The largest string any field can hold: the JSON body limit. Every rule must answer it quickly.
const BODY_LIMIT = 20 * 1024 * 1024;
// Far above what a linear check needs at 20 MiB (tens of milliseconds), far below a quadratic one.
const BUDGET_MS = 1500;

/** Runs `check`, failing if it throws (a stack overflow, say) or takes more CPU time than the budget (leastCpuMsOf). */
function timed<T>(check: () => T): T {
  const { result, cpuMs } = leastCpuMsOf(BUDGET_MS, check);
  expect(cpuMs).toBeLessThan(BUDGET_MS);
  return result;
}

/** Whether a property-decorator rule accepts `value`, through class-validator as the pipe runs it. */
function accepts(decorator: (target: object, propertyName: string) => void, value: unknown): boolean {
  class Probe {
    @decorator
    field: unknown;
  }
  return validateSync(Object.assign(new Probe(), { field: value })).length === 0;
}

describe('IsStandardBase64', () => {
  const base64 = (bytes: number) => Buffer.alloc(bytes, 0xa5).toString('base64');

  it('accepts padded standard base64 of every length, up to the whole body limit, and nothing else', () => {
    for (const bytes of [0, 1, 2, 3, 4]) expect(accepts(IsStandardBase64(), base64(bytes))).toBe(true);
    expect(timed(() => accepts(IsStandardBase64(), base64(10 * 1024 * 1024)))).toBe(true);
    const largest = base64((BODY_LIMIT / 4) * 3 - 3);
    expect(timed(() => accepts(IsStandardBase64(), largest))).toBe(true);
    expect(timed(() => accepts(IsStandardBase64(), `${largest.slice(0, -4)}AA=A`))).toBe(false);
    expect(timed(() => accepts(IsStandardBase64(), `${largest.slice(0, -1)}!`))).toBe(false);
    for (const bad of ['YQ', 'YQ=', 'Y===', '-_-_', 'YQ==YQ==', 'YWJj\n', ' YWJj'])
      expect(accepts(IsStandardBase64(), bad)).toBe(false);
  });
});

describe(hasLength.name, () => {
  it('counts characters as code points, up to the maximum and not one more', () => {
    expect(hasLength('x'.repeat(998), 1, 998)).toBe(true);
    expect(hasLength('x'.repeat(999), 1, 998)).toBe(false);
    expect(hasLength('😀'.repeat(998), 1, 998)).toBe(true);
    expect(hasLength('😀'.repeat(999), 1, 998)).toBe(false);
    expect(hasLength('', 1, 998)).toBe(false);
    expect(hasLength(42, 1, 998)).toBe(false);
  });

  it('answers a string of the whole body limit as fast as a short one', () => {
    expect(timed(() => hasLength('😀'.repeat(BODY_LIMIT / 4), 1, 998))).toBe(false);
    expect(timed(() => hasLength('x'.repeat(BODY_LIMIT), 1, 255))).toBe(false);
  });
});

describe('HasNoLineBreaks and MaxUtf8Bytes', () => {
  const MAX_HTML = 5 * 1024 * 1024;

  it('take the whole body limit in linear time', () => {
    expect(timed(() => accepts(HasNoLineBreaks(), 's'.repeat(BODY_LIMIT)))).toBe(true);
    expect(timed(() => accepts(HasNoLineBreaks(), `${'s'.repeat(BODY_LIMIT)}\n`))).toBe(false);
    expect(timed(() => accepts(MaxUtf8Bytes(MAX_HTML), '😀'.repeat(BODY_LIMIT / 4)))).toBe(false);
  });

  it('MaxUtf8Bytes counts bytes: 5 MiB of two-byte characters is the maximum', () => {
    expect(accepts(MaxUtf8Bytes(MAX_HTML), 'é'.repeat(MAX_HTML / 2))).toBe(true);
    expect(accepts(MaxUtf8Bytes(MAX_HTML), `${'é'.repeat(MAX_HTML / 2)}x`)).toBe(false);
  });
});

describe('IsNotBlank', () => {
  it('refuses a string of white space alone, of any kind and any length', () => {
    for (const blank of [' ', '\t', '   ', '\u00a0', '\u3000\u2003', '\ufeff'])
      expect(accepts(IsNotBlank(), blank)).toBe(false);
    expect(timed(() => accepts(IsNotBlank(), ' '.repeat(BODY_LIMIT)))).toBe(false);
    for (const subject of ['a', ' a ', '\u200b', `${' '.repeat(997)}x`])
      expect(accepts(IsNotBlank(), subject)).toBe(true);
  });
});

describe(isStringRecord.name, () => {
  const limits = { maxKeys: 50, maxKeyLength: 100, maxValueLength: 1000 };
  const record = (keys: number, keyLength: number, valueLength: number) =>
    Object.fromEntries(
      Array.from({ length: keys }, (_, i) => [String(i).padStart(keyLength, 'k'), 'v'.repeat(valueLength)]),
    );

  it('accepts 50 keys of 100 characters with values of 1,000, and refuses one more of each', () => {
    expect(isStringRecord(record(50, 100, 1000), limits)).toBe(true);
    expect(isStringRecord(record(51, 100, 1000), limits)).toBe(false);
    expect(isStringRecord(record(50, 101, 1000), limits)).toBe(false);
    expect(isStringRecord(record(50, 100, 1001), limits)).toBe(false);
  });

  it('counts characters as the other fields do: a key of 100 astral characters is 100, not 200', () => {
    expect(isStringRecord({ ['𝕂'.repeat(100)]: '😀'.repeat(1000) }, limits)).toBe(true);
    expect(isStringRecord({ ['𝕂'.repeat(101)]: 'v' }, limits)).toBe(false);
    expect(isStringRecord({ k: '😀'.repeat(1001) }, limits)).toBe(false);
  });
});
