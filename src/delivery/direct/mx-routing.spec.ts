import { MAX_SITE_CHARS, siteOf } from './mx-routing';

describe(siteOf.name, () => {
  it('is the hosts lower-cased, sorted, without repeats, joined by commas', () => {
    expect(siteOf(['MX2.example.com', 'mx1.example.com', 'mx2.example.com'])).toBe('mx1.example.com,mx2.example.com');
  });

  /** `count` hosts of `labelLength`-character labels under example.com, distinct by their number. */
  const hostsOf = (count: number, labelLength: number) =>
    Array.from({ length: count }, (_, i) => `${String(i).padStart(3, '0')}${'a'.repeat(labelLength - 3)}.example.com`);

  it('keeps a site of exactly MAX_SITE_CHARS as it is', () => {
    // 10 hosts of 99 characters and 9 commas: 999; one more character in the first host makes 1,000.
    const hosts = hostsOf(10, 87);
    hosts[0] = `a${hosts[0]}`;
    const site = siteOf(hosts);
    expect(site).toHaveLength(MAX_SITE_CHARS);
    expect(site.split(',')).toEqual([...hosts].sort());
  });

  it('bounds a site one past MAX_SITE_CHARS to the hosts that fit and a digest of the whole set', () => {
    const hosts = hostsOf(10, 87);
    hosts[0] = `ab${hosts[0]}`;
    const site = siteOf(hosts);
    expect(site.length).toBeLessThanOrEqual(MAX_SITE_CHARS);
    const parts = site.split(',');
    expect(parts.at(-1)).toMatch(/^\+[0-9a-f]{64}$/);
    expect(parts.slice(0, -1)).toEqual([...hosts].sort().slice(0, parts.length - 1));
  });

  it('bounds 50 hosts of the longest labels, and tells two such sets apart', () => {
    const fifty = hostsOf(50, 63);
    const other = [...fifty.slice(0, 49), 'another.example.com'];
    expect(siteOf(fifty).length).toBeLessThanOrEqual(MAX_SITE_CHARS);
    expect(siteOf(fifty)).not.toBe(siteOf(other));
    // The same set in another order is the same site.
    expect(siteOf([...fifty].reverse())).toBe(siteOf(fifty));
  });
});
