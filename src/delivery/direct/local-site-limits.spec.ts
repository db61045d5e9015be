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

  it('lets no open connection of a site that said "too fast" be reused until its pause ends; greylisting changes nothing', async () => {
    const sut = new LocalSiteLimits({ ...connections, pauseSeconds: 2 });
    // A clock the test moves: a busy machine's pause between two lines must not end the site's.
    let now = 1_000;
    const clock = jest.spyOn(performance, 'now').mockImplementation(() => now);

    try {
      await sut.deferred('mx.grey', '451 4.7.1 Greylisted, please try again later');
      await sut.deferred('mx.fast', '421 4.7.0 Too many connections from your host');

      expect(sut.mayReuse('mx.grey')).toBe(true);
      expect(sut.mayReuse('mx.fast')).toBe(false);
      expect(sut.mayReuse('mx.other')).toBe(true);
      now += 1_999;
      expect(sut.mayReuse('mx.fast')).toBe(false);
      now += 1;
      expect(sut.mayReuse('mx.fast')).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });
});
