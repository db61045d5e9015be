import type { MxConnection } from './mx-connection';
import { HeldConnection, IdleConnections } from './idle-connections';

/** A held connection that is open until closed, its lease counting releases. */
function held(site: string): HeldConnection & { released: () => number } {
  let released = 0;
  let open = true;
  const connection = {
    host: site,
    get usable() {
      return open;
    },
    close: () => (open = false),
  } as unknown as MxConnection;
  return {
    site,
    connection,
    lease: { release: () => Promise.resolve(void released++) },
    released: () => released,
  };
}

const any = () => true;

describe(IdleConnections.name, () => {
  it('keeps nothing for a site once its connections are taken back', () => {
    const sut = new IdleConnections(60_000);
    sut.put(held('a.test'));
    expect(sut.sitesKept).toBe(1);

    expect(sut.take('a.test', any)).toBeDefined();

    expect(sut.sitesKept).toBe(0);
  });

  it('keeps nothing for a site once its waiters are served or stop waiting', () => {
    const sut = new IdleConnections(60_000);
    const served = sut.wait('a.test', any);
    const gone = sut.wait('b.test', any);
    expect(sut.sitesKept).toBe(2);

    sut.put(held('a.test'));
    expect(served.cancel()).toBeDefined();
    expect(gone.cancel()).toBeUndefined();

    expect(sut.sitesKept).toBe(0);
  });

  it('keeps nothing for a site once its idle connection is closed, its lease released', async () => {
    const sut = new IdleConnections(10);
    const connection = held('a.test');
    sut.put(connection);

    await new Promise<void>((resolve) => {
      const check = setInterval(() => connection.released() === 1 && (clearInterval(check), resolve()), 5);
    });

    expect(sut.sitesKept).toBe(0);
    expect(connection.connection.usable).toBe(false);
  });

  it("closes a site's idle connections at once, releasing their leases (a paused site)", async () => {
    const sut = new IdleConnections(60_000);
    const [one, two] = [held('a.test'), held('a.test')];
    sut.put(one);
    sut.put(two);

    await sut.closeSite('a.test');

    expect([one.released(), two.released()]).toEqual([1, 1]);
    expect(sut.take('a.test', any)).toBeUndefined();
    expect(sut.sitesKept).toBe(0);
  });
});
