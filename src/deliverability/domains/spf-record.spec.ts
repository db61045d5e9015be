import { mergedSpf, namesMechanism, spfRecords } from './spf-record';

describe('SPF records', () => {
  it('finds the SPF records among TXT records (v=spf1 then a space or nothing)', () => {
    expect(spfRecords(['v=spf1 -all', 'google-site-verification=x', 'V=SPF1 mx', 'v=spf10 mx', 'v=spf1'])).toEqual([
      'v=spf1 -all',
      'V=SPF1 mx',
      'v=spf1',
    ]);
  });

  it('sees a mechanism with or without its + qualifier, in any case', () => {
    expect(namesMechanism('v=spf1 include:_spf.google.com +A:relay.example.net ~all', 'a:relay.example.net')).toBe(
      true,
    );
    expect(namesMechanism('v=spf1 include:_spf.google.com ~all', 'a:relay.example.net')).toBe(false);
    // Another qualifier says something else: not ours.
    expect(namesMechanism('v=spf1 -a:relay.example.net ~all', 'a:relay.example.net')).toBe(false);
  });

  it.each([
    [
      'before the all term',
      ['v=spf1 include:_spf.google.com ~all'],
      'v=spf1 include:_spf.google.com a:relay.example.net ~all',
    ],
    [
      'before modifiers',
      ['v=spf1 mx redirect=_spf.example.com'],
      'v=spf1 mx a:relay.example.net redirect=_spf.example.com',
    ],
    ['at the end when there is no all', ['v=spf1 ip4:192.0.2.1'], 'v=spf1 ip4:192.0.2.1 a:relay.example.net'],
    [
      'into one of two records, keeping the first all',
      ['v=spf1 include:a.example -all', 'v=spf1 include:b.example  ~all'],
      'v=spf1 include:a.example include:b.example a:relay.example.net -all',
    ],
    [
      'without repeating terms, or keeping a record that names it with another qualifier',
      ['v=spf1 mx ?a:relay.example.net mx ~all'],
      'v=spf1 mx ?a:relay.example.net a:relay.example.net ~all',
    ],
  ])('merges our mechanism %s', (_, records, merged) => {
    expect(mergedSpf(records, ['a:relay.example.net'])).toBe(merged);
  });
});
