import { isEmailAddress } from './email-address';
import { leastCpuMsOf } from '../../../test/support/cpu-time';

describe(isEmailAddress.name, () => {
  // 64 characters before the @ and 254 in all: the limits of RFC 5321.
  const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;

  it('accepts an address of 254 characters and refuses one of 255', () => {
    expect(longest).toHaveLength(254);
    expect(isEmailAddress(longest)).toBe(true);
    expect(isEmailAddress(`${longest.slice(0, 65)}b${longest.slice(65)}`)).toBe(false);
  });

  it('answers a string of 20 MiB (the body limit) at once', () => {
    const { cpuMs } = leastCpuMsOf(1500, () => {
      expect(isEmailAddress(`${'a'.repeat(20 * 1024 * 1024)}@example.com`)).toBe(false);
      expect(isEmailAddress(`"${'\\a'.repeat(10 * 1024 * 1024)}"@example.com`)).toBe(false);
    });
    // CPU time, not wall time: a busy machine does not make it fail, nor a collection of others' garbage (test/support/cpu-time.ts).
    expect(cpuMs).toBeLessThan(1500);
  });

  it.each([
    'ada@example.com',
    'Ada.Lovelace+news@example.co.uk',
    "o'brien@example.ie",
    'josé@example.com',
    'ünïcödé@bücher.de',
    'Ωμέγα@example.gr',
    // Quoted, as some Japanese carriers' addresses must be (a dot at an edge or twice in a row), and with the specials servers take.
    '".ada"@example.com',
    '"ada."@example.com',
    '"a..da"@example.com',
    '"a,b"@example.com',
    '"a(b)"@example.com',
    '"[a]:b;c"@example.com',
  ])('accepts %s', (address) => {
    expect(isEmailAddress(address)).toBe(true);
  });

  it.each([
    ['a quoted CR LF that writes a header', '"a\r\nX-Injected: 1"@example.com'],
    ['a quoted LF', '"a\nb"@example.com'],
    ['a quoted NUL', '"a\u0000b"@example.com'],
    ['a quoted tab', '"a\tb"@example.com'],
    ['a quoted space', '"john doe"@example.com'],
    ['a quoted DEL', '"a\u007fb"@example.com'],
    ['a quoted pair', '"a\\"b"@example.com'],
    ['a quoted backslash', '"a\\\\b"@example.com'],
    ['a quoted @', '"a@b"@example.com'],
    ['quoted angle brackets', '"<a>"@example.com'],
    ['a quoted non-ASCII letter', '"josé"@example.com'],
    ['an empty quoted local part', '""@example.com'],
    ['a C1 control', 'a\u0085b@example.com'],
    ['a bidi override', 'ada@exam\u202eple.com'],
    ['a zero-width space', 'a\u200bda@example.com'],
    ['a no-break space', 'a\u00a0da@example.com'],
    ['an ideographic space', 'ada\u3000@example.com'],
    ['a byte-order mark', '\ufeffada@example.com'],
    ['a line separator', 'ada@example.com\u2028'],
    ['a private-use character', 'a\ue000da@example.com'],
    ['a lone surrogate', 'a\ud800da@example.com'],
  ])('refuses %s', (_case, address) => {
    expect(isEmailAddress(address)).toBe(false);
  });
});
