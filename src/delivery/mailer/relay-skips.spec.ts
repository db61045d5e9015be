import { Clock } from '../../platform/clock';
import { RELAY_SKIP_MS, RelaySkips } from './relay-skips';

/** A clock the test moves. */
class MovableClock extends Clock {
  constructor(public at: number) {
    super();
  }

  override now(): Date {
    return new Date(this.at);
  }
}

const [a, b, c] = ['a.example:25', 'b.example:2525', 'c.example:587'].map((name) => ({ name }));

describe(RelaySkips.name, () => {
  let clock: MovableClock;
  let sut: RelaySkips;

  beforeEach(() => {
    clock = new MovableClock(Date.parse('2026-11-28T12:00:00Z'));
    sut = new RelaySkips(clock);
  });

  it('tries the relays in the configured order while none has failed', () => {
    expect(sut.order([a, b, c])).toEqual([a, b, c]);
  });

  it('puts a relay that failed after the others for 60 s, then back in its place', () => {
    sut.failed(a);

    expect(sut.order([a, b, c])).toEqual([b, c, a]);
    clock.at += RELAY_SKIP_MS - 1;
    expect(sut.order([a, b, c])).toEqual([b, c, a]);
    clock.at += 1;
    expect(sut.order([a, b, c])).toEqual([a, b, c]);
  });

  it('still tries every relay, in configured order, when all have failed lately', () => {
    sut.failed(b);
    clock.at += 1_000;
    sut.failed(a);
    sut.failed(c);

    expect(sut.order([a, b, c])).toEqual([a, b, c]);
  });

  it('takes a skipped relay back at once when it answers', () => {
    sut.failed(a);
    sut.answered(a);

    expect(sut.order([a, b, c])).toEqual([a, b, c]);
  });

  it('counts the window from the latest failure', () => {
    sut.failed(a);
    clock.at += 50_000;
    sut.failed(a);
    clock.at += 50_000;

    expect(sut.order([a, b])).toEqual([b, a]);
  });

  it('takes its window from the constructor', () => {
    const short = new RelaySkips(clock, 10);
    short.failed(a);
    clock.at += 10;

    expect(short.order([a, b])).toEqual([a, b]);
  });
});
