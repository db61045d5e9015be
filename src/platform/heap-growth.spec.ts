import { setFlagsFromString } from 'node:v8';
import { boundHeapGrowth, steadyHeapGrowth } from './heap-growth';

jest.mock('node:v8', () => ({ setFlagsFromString: jest.fn() }));
const flags = jest.mocked(setFlagsFromString);

describe('heap growth', () => {
  beforeEach(() => flags.mockClear());

  it('is bounded while any holder holds it, and steady again once the last one lets go', () => {
    steadyHeapGrowth();
    expect(flags.mock.calls).toEqual([['--heap-growing-percent=100']]);
    const first = boundHeapGrowth();
    const second = boundHeapGrowth();
    expect(flags.mock.calls.slice(1)).toEqual([['--heap-growing-percent=20']]);
    first();
    // Released twice: counted once, so the second holder still holds the bound.
    first();
    expect(flags).toHaveBeenCalledTimes(2);
    steadyHeapGrowth();
    expect(flags).toHaveBeenCalledTimes(2);
    second();
    expect(flags.mock.calls.slice(2)).toEqual([['--heap-growing-percent=100']]);
  });
});
