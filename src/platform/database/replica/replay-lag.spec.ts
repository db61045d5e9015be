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
    sut = new ReplayLag(60_000);
  });

  it('knows nothing before the first sample of the primary', () => {
    expect(sut.currentAsOf(100n)).toBeUndefined();
  });

  it('is current as of the last probe for a replica that has replayed what the primary had then, however idle the primary', () => {
    sut.recordPrimary(500n, 1_000);
    // An idle primary: nothing new for a minute, nothing missing.
    sut.recordPrimary(500n, 61_000);

    expect(sut.currentAsOf(500n)).toBe(61_000);
    expect(sut.currentAsOf(900n)).toBe(61_000);
  });

  it('is current as of the newest sample the replica has replayed past, when it is behind the last', () => {
    sut.recordPrimary(100n, 1_000);
    sut.recordPrimary(200n, 1_250);
    sut.recordPrimary(300n, 1_500);

    expect(sut.currentAsOf(250n)).toBe(1_250);
    expect(sut.currentAsOf(200n)).toBe(1_250);
    expect(sut.currentAsOf(199n)).toBe(1_000);
  });

  it('stays where a paused replay left it while the primary writes on', () => {
    sut.recordPrimary(100n, 0);
    for (let at = 250; at <= 5_000; at += 250) sut.recordPrimary(BigInt(100 + at), at);

    expect(sut.currentAsOf(100n)).toBe(0);
  });

  it('keeps one sample while the log stands still, the newest time at that position', () => {
    for (let at = 0; at <= 3_600_000; at += 250) sut.recordPrimary(500n, at);
    sut.recordPrimary(600n, 3_600_250);

    expect(sut.currentAsOf(500n)).toBe(3_600_000);
    expect((sut as unknown as { samples: unknown[] }).samples).toHaveLength(2);
  });

  it('keeps samples as long as it was told: a bound of an hour is judged on an hour of positions', () => {
    const hour = new ReplayLag(3_600_000 + 500);
    for (let at = 0; at <= 3_600_000; at += 250) hour.recordPrimary(BigInt(1_000 + at), at);

    expect(hour.currentAsOf(1_000n)).toBe(0);
    expect(hour.currentAsOf(999n)).toBeUndefined();
  });

  it('knows nothing of a replica behind every sample kept (a minute of them)', () => {
    sut.recordPrimary(100n, 0);
    sut.recordPrimary(200n, 30_000);
    sut.recordPrimary(300n, 61_000);

    // The first sample is forgotten: only 200 and 300 are kept.
    expect(sut.currentAsOf(150n)).toBeUndefined();
    expect(sut.currentAsOf(200n)).toBe(30_000);
  });
});
