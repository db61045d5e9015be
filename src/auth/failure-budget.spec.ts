import { FailureBudget } from './failure-budget';

describe(FailureBudget.name, () => {
  let clock: number;
  let sut: FailureBudget;

  beforeEach(() => {
    clock = 0;
    sut = new FailureBudget({ limit: 20, windowMs: 60_000 }, () => clock);
  });

  const failTimes = (client: string, times: number) => {
    for (let i = 0; i < times; i++) sut.fail(client);
  };

  it('lets a client fail 20 times in a window and refuses it at the 21st try, until the window ends', () => {
    failTimes('192.0.2.1', 19);
    expect(sut.refusal('192.0.2.1')).toBeUndefined();
    sut.fail('192.0.2.1');
    clock = 15_500;
    expect(sut.refusal('192.0.2.1')).toEqual({ limit: 20, retryAfterSeconds: 45 });
    clock = 59_999;
    expect(sut.refusal('192.0.2.1')).toEqual({ limit: 20, retryAfterSeconds: 1 });
    clock = 60_000;
    expect(sut.refusal('192.0.2.1')).toBeUndefined();
    // A new window: 19 failures more are still within it.
    failTimes('192.0.2.1', 19);
    expect(sut.refusal('192.0.2.1')).toBeUndefined();
  });

  it('counts each client on its own', () => {
    failTimes('192.0.2.1', 20);
    failTimes('2001:db8::1', 19);
    expect(sut.refusal('192.0.2.1')).toBeDefined();
    expect(sut.refusal('2001:db8::1')).toBeUndefined();
    expect(sut.refusal('192.0.2.2')).toBeUndefined();
  });

  it('keeps at most 100,000 clients, dropping ended windows first, then the oldest', () => {
    failTimes('first', 20);
    clock = 1;
    for (let i = 0; i < 99_999; i++) sut.fail(`client-${i}`);
    expect(sut.refusal('first')).toBeDefined();
    // The 100,001st client: the oldest window (first's) goes, the rest stay.
    sut.fail('one-more');
    expect(sut.refusal('first')).toBeUndefined();
    failTimes('client-0', 19);
    expect(sut.refusal('client-0')).toBeDefined();
  });
});

describe(`${FailureBudget.name} with a budget changed while it runs`, () => {
  it('takes a shortened window from the next first failure on', () => {
    let clock = 0;
    const budget = { limit: 2, windowMs: 60_000 };
    const sut = new FailureBudget(budget, () => clock);
    budget.windowMs = 1_000;
    sut.fail('192.0.2.1');
    sut.fail('192.0.2.1');
    expect(sut.refusal('192.0.2.1')).toEqual({ limit: 2, retryAfterSeconds: 1 });
    clock = 1_000;
    expect(sut.refusal('192.0.2.1')).toBeUndefined();
  });
});
