import { asciiDomainOf, byRecipientDomain, envelopeAddressOf } from './recipient-domains';

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

describe(envelopeAddressOf.name, () => {
  it('says an IDN domain in A-label form, the local part as given', () => {
    expect(envelopeAddressOf('User@Bücher.example')).toBe('User@xn--bcher-kva.example');
  });

  it('leaves an ASCII address exactly as given', () => {
    expect(envelopeAddressOf('A@Alpha.TEST')).toBe('A@Alpha.TEST');
  });
});
