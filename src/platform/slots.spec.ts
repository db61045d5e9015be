import { Slots } from './slots';

describe(Slots.name, () => {
  it('lets `size` holders in at once and the next waiting one in, in order, as each gives its slot back', async () => {
    const slots = new Slots(2);
    const entered: number[] = [];
    const releases: (() => void)[] = [];
    const holders = [0, 1, 2, 3].map((n) => slots.take().then((release) => (entered.push(n), releases.push(release))));
    await Promise.all(holders.slice(0, 2));
    await new Promise((resolve) => setImmediate(resolve));
    expect(entered).toEqual([0, 1]);

    releases[0]();
    releases[0](); // a second call gives nothing back twice
    await holders[2];
    await new Promise((resolve) => setImmediate(resolve));
    expect(entered).toEqual([0, 1, 2]);

    releases[1]();
    await holders[3];
    expect(entered).toEqual([0, 1, 2, 3]);
    releases[2]();
    releases[3]();
    // Both slots are free again: two takers get in at once.
    await Promise.all([slots.take(), slots.take()]);
  });

  it('serves waiting owners in turn, so that one owner with many takers does not keep another waiting behind them', async () => {
    const slots = new Slots(1);
    const entered: string[] = [];
    const first = await slots.take('a');
    const waiting = ['a1', 'a2', 'a3', 'b1', 'b2'].map((name) =>
      slots.take(name[0]).then((release) => (entered.push(name), release)),
    );
    first();
    for (const holder of waiting) {
      // Each holder gives its slot back as soon as it has it.
      void holder.then((release) => setImmediate(release));
    }
    await Promise.all(waiting);
    // b waited behind a's first taker only, not behind all of a's.
    expect(entered).toEqual(['a1', 'b1', 'a2', 'b2', 'a3']);
  });

  it('gives one owner at most `perOwner` slots, even when more are free', async () => {
    const slots = new Slots(2, 1);
    const a = await slots.take('a');
    let secondOfA = false;
    const waitingA = slots.take('a').then((release) => ((secondOfA = true), release));
    // Another owner still gets the other slot at once.
    const b = await slots.take('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondOfA).toBe(false);

    b();
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondOfA).toBe(false);
    a();
    (await waitingA)();
    expect(secondOfA).toBe(true);
  });
});
