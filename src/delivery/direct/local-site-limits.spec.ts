import { LocalSiteLimits } from './local-site-limits';
import { DEFAULT_SITE_SHAPING } from './site-shaping';

const connections = { ...DEFAULT_SITE_SHAPING, defaultConnections: 2, byHostSuffix: { 'google.com': 1 } };

describe(LocalSiteLimits.name, () => {
  const later = () => performance.now() + 10_000;

  it('leases up to the limit of each site, and the next waits for a release', async () => {
    const sut = new LocalSiteLimits(connections);
    const [a, b] = [await sut.acquire('mx.example', later()), await sut.acquire('mx.example', later())];
    const third = sut.acquire('mx.example', later());
    // Another site is not held by this one's limit.
    expect(await sut.acquire('mx.other', later())).toBeDefined();
    expect(sut.openAt('mx.example')).toBe(2);

    await a!.release();
    const lease = await third;

    expect(lease).toBeDefined();
    expect(sut.openAt('mx.example')).toBe(2);
    await b!.release();
    await lease!.release();
    // A second release of the same lease gives nothing back twice.
    await lease!.release();
    expect(sut.openAt('mx.example')).toBe(0);
  });

  it('answers undefined once the deadline comes first', async () => {
    const sut = new LocalSiteLimits(connections);
    await sut.acquire('aspmx.l.google.com', later());

    expect(await sut.acquire('aspmx.l.google.com', performance.now() + 20)).toBeUndefined();
    expect(await sut.acquire('aspmx.l.google.com', performance.now() - 1)).toBeUndefined();
    expect(sut.openAt('aspmx.l.google.com')).toBe(1);
  });

  it('answers undefined once its waiter is told to stop asking, and the next release goes to nobody', async () => {
    const sut = new LocalSiteLimits(connections);
    const held = await sut.acquire('aspmx.l.google.com', later());
    const stop = new AbortController();
    const waiting = sut.acquire('aspmx.l.google.com', later(), stop.signal);

    stop.abort();

    expect(await waiting).toBeUndefined();
    await held!.release();
    expect(sut.openAt('aspmx.l.google.com')).toBe(0);
    expect(await sut.acquire('aspmx.l.google.com', later(), stop.signal)).toBeUndefined();
  });
});
