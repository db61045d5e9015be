import {
  allowanceAt,
  connectionLimitOf,
  DEFAULT_SITE_SHAPING,
  pauseSecondsFor,
  SitePace,
  SiteShapingOptions,
  slowedDown,
} from './site-shaping';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1_000);

describe('connectionLimitOf', () => {
  it.each([
    ['alt1.aspmx.l.google.com,aspmx.l.google.com', 3],
    ['example-com.mail.protection.outlook.com', 3],
    ['mta5.am0.yahoodns.net,mta6.am0.yahoodns.net,mta7.am0.yahoodns.net', 3],
    ['ASPMX.L.GOOGLE.COM.', 3],
    ['mx1.example.net,mx2.example.net', 5],
    // A label boundary: notgoogle.com is someone else.
    ['mx.notgoogle.com', 5],
    ['google.com', 3],
    // A site mixing a provider with another host reaches the provider: its limit holds.
    ['aspmx.l.google.com,backup.example.net', 3],
  ])('gives %s %i connections by default', (site, limit) => {
    expect(connectionLimitOf(site, DEFAULT_SITE_SHAPING)).toBe(limit);
  });

  it('takes the lowest limit among the suffixes its hosts match, and the configured default', () => {
    const options: SiteShapingOptions = {
      ...DEFAULT_SITE_SHAPING,
      defaultConnections: 8,
      byHostSuffix: { 'example.net': 4, 'slow.example.net': 1 },
    };
    expect(connectionLimitOf('mx.slow.example.net', options)).toBe(1);
    expect(connectionLimitOf('mx.example.net', options)).toBe(4);
    expect(connectionLimitOf('aspmx.l.google.com', options)).toBe(8);
  });
});

describe('allowanceAt', () => {
  const slowed: SitePace = { connectionLimit: 5, concurrency: 2, pausedUntil: at(60), lastSlowedAt: at(0) };

  it('is the limit for a site never slowed', () => {
    expect(allowanceAt({ ...slowed, concurrency: 5, pausedUntil: null, lastSlowedAt: null }, at(0), 300)).toBe(5);
  });

  it.each([
    [0, 2],
    [299, 2],
    [300, 3],
    [599, 3],
    [600, 4],
    [900, 5],
    [100_000, 5],
  ])('grows back by one a quiet period: %i s after the slow-down it is %i', (seconds, allowance) => {
    expect(allowanceAt(slowed, at(seconds), 300)).toBe(allowance);
  });

  it('does not shrink for a clock behind the slow-down', () => {
    expect(allowanceAt(slowed, at(-1_000), 300)).toBe(2);
  });
});

describe('slowedDown', () => {
  const full: SitePace = { connectionLimit: 5, concurrency: 5, pausedUntil: null, lastSlowedAt: null };

  it('halves what the site may have now, to one at least, and pauses it', () => {
    expect(slowedDown(full, at(0), 60, 300)).toEqual({
      connectionLimit: 5,
      concurrency: 2,
      pausedUntil: at(60),
      lastSlowedAt: at(0),
    });
    const one = { ...full, concurrency: 1, pausedUntil: at(60), lastSlowedAt: at(0) };
    expect(slowedDown(one, at(100), 60, 300).concurrency).toBe(1);
  });

  it('halves the grown-back allowance, not the one stored', () => {
    const slowed = slowedDown(full, at(0), 60, 300); // 2
    expect(slowedDown(slowed, at(600), 60, 300).concurrency).toBe(2); // grown to 4, halved
  });

  it('reads a reply during the pause as the same episode: no second halving, the quiet period restarts', () => {
    const slowed = slowedDown(full, at(0), 60, 300);
    const again = slowedDown(slowed, at(10), 120, 300);
    expect(again).toEqual({ connectionLimit: 5, concurrency: 2, pausedUntil: at(130), lastSlowedAt: at(10) });
    // A shorter pause does not cut the one in force.
    expect(slowedDown(slowed, at(10), 5, 300).pausedUntil).toEqual(at(60));
  });
});

describe('pauseSecondsFor', () => {
  it('takes the delay the reply names, else the configured pause', () => {
    expect(pauseSecondsFor('421 4.7.0 Too many connections, try again in 2 minutes', DEFAULT_SITE_SHAPING)).toBe(120);
    expect(pauseSecondsFor('421 4.7.0 Too many connections', DEFAULT_SITE_SHAPING)).toBe(60);
  });

  it('bounds a named delay by the longer of the pause and the quiet period', () => {
    expect(pauseSecondsFor('421 try again in 2 hours', DEFAULT_SITE_SHAPING)).toBe(300);
    expect(pauseSecondsFor('421 try again in 2 hours', { ...DEFAULT_SITE_SHAPING, pauseSeconds: 900 })).toBe(900);
  });
});
