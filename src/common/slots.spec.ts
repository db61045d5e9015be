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
});
