import { TLS_BROKEN_FOR_MS, TlsBrokenHosts } from './tls-broken-hosts';

describe(TlsBrokenHosts.name, () => {
  it('remembers a host for a day, whatever its case, then forgets it', () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const sut = new TlsBrokenHosts({ now: () => new Date(now) });

    sut.failed('MX1.Example.com');

    expect(sut.isBroken('mx1.example.com')).toBe(true);
    expect(sut.isBroken('mx2.example.com')).toBe(false);
    now += TLS_BROKEN_FOR_MS - 1;
    expect(sut.isBroken('mx1.example.com')).toBe(true);
    now += 1;
    expect(sut.isBroken('mx1.example.com')).toBe(false);
  });

  it('forgets the hosts whose day is over, asked about again or not, as others fail', () => {
    let now = Date.parse('2026-11-28T10:00:00Z');
    const sut = new TlsBrokenHosts({ now: () => new Date(now) });
    for (let i = 0; i < 50; i++) sut.failed(`mx${i}.example.com`);
    now += TLS_BROKEN_FOR_MS;

    sut.failed('mx.other.example');

    expect(sut.size).toBe(1);
    expect(sut.isBroken('mx.other.example')).toBe(true);
  });
});
