import { MAX_DIRECT_SITE_LABELS, Metrics } from './metrics';

describe('Metrics.directSite', () => {
  // The counters only: no scrape here, so the queues the gauges read are never asked.
  const metrics = () => new Metrics(undefined as never, undefined as never);

  it('names the first sites seen, then counts every other as `other`', () => {
    const sut = metrics();
    const sites = Array.from({ length: MAX_DIRECT_SITE_LABELS }, (_, i) => `mx${i}.example.test`);
    for (const site of sites) expect(sut.directSite(site)).toBe(site);

    expect(sut.directSite('mx.one-too-many.test')).toBe('other');
    expect(sut.directSite(sites[0])).toBe(sites[0]);
    expect(sut.directSite(sites[MAX_DIRECT_SITE_LABELS - 1])).toBe(sites[MAX_DIRECT_SITE_LABELS - 1]);
  });

  it('leaves the empty site of a routing failure as it is, without taking a place', () => {
    const sut = metrics();
    expect(sut.directSite('')).toBe('');
    for (let i = 0; i < MAX_DIRECT_SITE_LABELS; i++) sut.directSite(`mx${i}.example.test`);
    expect(sut.directSite('')).toBe('');
    expect(sut.directSite('late.example.test')).toBe('other');
  });

  it('bounds the series of the direct counters', async () => {
    const sut = metrics();
    for (let i = 0; i < MAX_DIRECT_SITE_LABELS + 50; i++)
      sut.directDeliveries.inc({ site: sut.directSite(`mx${i}.example.test`), outcome: 'sent' });

    const { values } = await sut.directDeliveries.get();

    expect(values).toHaveLength(MAX_DIRECT_SITE_LABELS + 1);
    expect(values.find((v) => v.labels.site === 'other')?.value).toBe(50);
  });
});
