import { TrustedProxies } from './trusted-proxies';

describe('TrustedProxies.parse', () => {
  it('takes 100 entries and refuses 101', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => `192.0.2.${i}`).join(',');

    expect(TrustedProxies.parse(list(100)).trusts('192.0.2.99')).toBe(true);
    expect(() => TrustedProxies.parse(list(101))).toThrow(/at most 100/);
  });

  it('takes an IPv4-mapped range as the IPv4 range it means', () => {
    expect(TrustedProxies.parse('::ffff:10.0.0.0/104').trusts('10.9.9.9')).toBe(true);
  });
});
