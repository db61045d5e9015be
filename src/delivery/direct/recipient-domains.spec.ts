import { asciiDomainOf, byRecipientDomain } from './recipient-domains';

describe(byRecipientDomain.name, () => {
  it('groups the envelope by domain, in order, each address as given', () => {
    const groups = byRecipientDomain(['a@Alpha.test', 'b@beta.test', 'C@alpha.TEST', 'd@bücher.example']);

    expect([...groups]).toEqual([
      ['alpha.test', ['a@Alpha.test', 'C@alpha.TEST']],
      ['beta.test', ['b@beta.test']],
      ['xn--bcher-kva.example', ['d@bücher.example']],
    ]);
  });

  it('takes the domain after the last @ (a quoted local part may hold one)', () => {
    expect(asciiDomainOf('"a@b"@Example.com')).toBe('example.com');
  });

  it('keeps a domain that is no valid IDN as given, lower-cased: its look-up fails, not the grouping', () => {
    expect(asciiDomainOf('a@xn--a.EXAMPLE')).toBe('xn--a.example');
  });
});
