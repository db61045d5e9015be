import { domainsAbove, MAX_DOMAIN_NAME_LENGTH, toDomainName } from './domain-name';

// Four labels of 63, 63, 63 and 61 characters with their dots: exactly 253.
const nameOfLength = (length: number) => {
  const labels = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63)];
  return [...labels, 'd'.repeat(length - 3 * 64)].join('.');
};

describe(toDomainName.name, () => {
  it('takes a name of 253 characters and refuses one of 254', () => {
    expect(nameOfLength(253)).toHaveLength(MAX_DOMAIN_NAME_LENGTH);
    expect(toDomainName(nameOfLength(253))).toBe(nameOfLength(253));
    expect(toDomainName(nameOfLength(254))).toBeUndefined();
  });

  it('takes labels of 63 characters and refuses one of 64', () => {
    expect(toDomainName(`${'a'.repeat(63)}.example`)).toBe(`${'a'.repeat(63)}.example`);
    expect(toDomainName(`${'a'.repeat(64)}.example`)).toBeUndefined();
  });

  it('lower-cases, and writes an internationalized name in its A-label form', () => {
    expect(toDomainName('Mail.Example.COM')).toBe('mail.example.com');
    expect(toDomainName('Bücher.example')).toBe('xn--bcher-kva.example');
    expect(toDomainName('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(toDomainName('пример.рф')).toBe('xn--e1afmkfd.xn--p1ai');
  });

  it('refuses a name whose A-label form is over 253 characters, however short it is in Unicode', () => {
    // 214 characters; each label is 52 in its A-label form, the whole name 264.
    const unicode = Array(5).fill('bücher-straße-'.repeat(3)).join('.');
    expect(unicode.length).toBeLessThan(MAX_DOMAIN_NAME_LENGTH);
    expect(toDomainName(unicode)).toBeUndefined();
  });

  it.each([
    ['', 'empty'],
    ['example', 'one label'],
    ['localhost', 'one label'],
    ['example.com.', 'a trailing dot'],
    ['.example.com', 'an empty label'],
    ['a..example.com', 'an empty label'],
    ['-a.example.com', 'a leading hyphen'],
    ['a-.example.com', 'a trailing hyphen'],
    ['_dmarc.example.com', 'an underscore'],
    ['*.example.com', 'a wildcard'],
    ['ada@example.com', 'an address'],
    ['127.0.0.1', 'an IP address'],
    ['[::1]', 'an IPv6 literal'],
    ['example.123', 'a numeric top-level label'],
    ['exa mple.com', 'a space'],
    ['example.com\n', 'a line break'],
    ['a%41.example.com', 'a percent escape'],
    ['exa\u3002mple.com', 'an ideographic full stop'],
    ['xn--zz.example', 'a broken A-label'],
    ['https://example.com', 'a URL'],
  ])('refuses %j (%s)', (value) => {
    expect(toDomainName(value)).toBeUndefined();
  });

  it.each([[42], [null], [['example.com']], [{ name: 'example.com' }], ['a'.repeat(2_000_000) + '.com']])(
    'refuses %p unread',
    (value) => {
      expect(toDomainName(value)).toBeUndefined();
    },
  );
});

describe(domainsAbove.name, () => {
  it('lists the domain of an address and each above it, most specific first, in stored form', () => {
    expect(domainsAbove('ada@Mail.Example.com')).toEqual(['mail.example.com', 'example.com', 'com']);
    expect(domainsAbove('"a@b"@bücher.example')).toEqual(['xn--bcher-kva.example', 'example']);
  });
});
