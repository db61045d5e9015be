import { FailedLogins } from './failed-logins';

describe(FailedLogins.name, () => {
  let now = 0;
  const sut = () => new FailedLogins(() => 20, () => 60_000, () => now);
  beforeEach(() => (now = 1_000_000));

  it('refuses an address at its 20th failure within the window, not at its 19th, until the window ends', () => {
    const logins = sut();
    for (let i = 0; i < 19; i++) logins.record('192.0.2.1');
    expect(logins.refuses('192.0.2.1')).toBe(false);

    now += 59_000;
    logins.record('192.0.2.1');
    expect(logins.refuses('192.0.2.1')).toBe(true);
    // Another address is not held to it.
    expect(logins.refuses('192.0.2.2')).toBe(false);

    // The window began at the first failure: it ends a minute after that, not after the last.
    now += 999;
    expect(logins.refuses('192.0.2.1')).toBe(true);
    now += 1;
    expect(logins.refuses('192.0.2.1')).toBe(false);
  });

  it('starts a new window at the first failure after one ended, counting from one', () => {
    const logins = sut();
    for (let i = 0; i < 19; i++) logins.record('192.0.2.1');
    now += 60_000;
    logins.record('192.0.2.1');
    expect(logins.refuses('192.0.2.1')).toBe(false);
    for (let i = 0; i < 18; i++) logins.record('192.0.2.1');
    expect(logins.refuses('192.0.2.1')).toBe(false);
    logins.record('192.0.2.1');
    expect(logins.refuses('192.0.2.1')).toBe(true);
  });

  it('forgets the windows that ended, so that addresses tried once each do not pile up', () => {
    const logins = sut();
    for (let i = 0; i < 10_000; i++) logins.record(`2001:db8::${i.toString(16)}`);
    now += 60_000;
    logins.record('192.0.2.9');
    expect((logins as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});
