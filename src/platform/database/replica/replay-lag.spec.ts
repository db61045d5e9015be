import { lsnOf, ReplayLag } from './replay-lag';

describe('lsnOf', () => {
  it('reads both halves of a position, so that positions compare as numbers', () => {
    expect(lsnOf('0/16B3748')).toBe(0x16b3748n);
    expect(lsnOf('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(lsnOf('1/0') > lsnOf('0/FFFFFFFF')).toBe(true);
  });

  it('reads the largest position there is', () => {
    expect(lsnOf('FFFFFFFF/FFFFFFFF')).toBe(2n ** 64n - 1n);
  });
});

describe('ReplayLag', () => {
  let sut: ReplayLag;

  beforeEach(() => {
    sut = new ReplayLag();
  });

  it('knows nothing before the first sample of the primary', () => {
    expect(sut.lagMs(100n, 1_000)).toBe(Infinity);
  });

  it('is 0 for a replica that has replayed what the primary had at the last probe, however old that is', () => {
    sut.recordPrimary(500n, 1_000);
    // An idle primary: nothing new for a minute, nothing missing.
    sut.recordPrimary(500n, 61_000);

    expect(sut.lagMs(500n, 61_010)).toBe(0);
  });

  it('is the age of the newest sample the replica has replayed past, when it is behind the last', () => {
    sut.recordPrimary(100n, 1_000);
    sut.recordPrimary(200n, 1_250);
    sut.recordPrimary(300n, 1_500);

    expect(sut.lagMs(250n, 1_510)).toBe(260);
    expect(sut.lagMs(200n, 1_510)).toBe(260);
    expect(sut.lagMs(199n, 1_510)).toBe(510);
  });

  it('grows while the replica replays nothing and the primary writes (a paused replay)', () => {
    sut.recordPrimary(100n, 0);
    for (let at = 250; at <= 5_000; at += 250) sut.recordPrimary(BigInt(100 + at), at);

    expect(sut.lagMs(100n, 5_000)).toBe(5_000);
  });

  it('is Infinity for a replica behind every sample kept (a minute of them)', () => {
    sut.recordPrimary(100n, 0);
    sut.recordPrimary(200n, 30_000);
    sut.recordPrimary(300n, 61_000);

    // The first sample is forgotten: only 200 and 300 are kept.
    expect(sut.lagMs(150n, 61_000)).toBe(Infinity);
    expect(sut.lagMs(200n, 61_000)).toBe(31_000);
  });
});
