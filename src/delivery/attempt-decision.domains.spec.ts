import { decideAttempt } from './attempt-decision';
import { MailDeliveryError, Route } from './mailer/mailer';
import {
  a,
  b,
  c,
  UNKNOWN,
  people,
  receipt,
  failure,
  refusal,
  temporary,
  decide,
} from '../../test/support/delivery/attempt-decision-cases';

describe(`${decideAttempt.name}: per-domain transactions (direct delivery)`, () => {
  const [here, there, gone] = ['a@one.test', 'b@two.test', 'c@three.test'];
  const recipients = people(here, there, gone);
  const mx = (host: string, tls: boolean): Route => ({ host, tls });

  it('sends the accepted domain, defers the deferred one and fails the failed one, each fate with its route', () => {
    const decision = decide(recipients, [
      receipt([here], '250 ok', [], mx('mx.one.test', true)),
      failure([there], temporary('421 4.7.0 Try later', undefined, mx('mx.two.test', false))),
      failure(
        [gone],
        new MailDeliveryError(UNKNOWN, true, 'RCPT TO', [refusal(gone, UNKNOWN)], mx('mx.three.test', true)),
      ),
    ]);
    expect(decision).toEqual({
      status: 'deferred',
      detail:
        '250 ok (mx.one.test, TLS); 421 4.7.0 Try later (mx.two.test, no TLS); ' +
        `${UNKNOWN} (mx.three.test, TLS) (pending: ${there} (421 4.7.0 Try later)) (refused: ${gone} (${UNKNOWN}))`,
      retryAfterSeconds: 30,
      copies: { pending: [1], accepted: 1 },
      fates: [
        { position: 0, key: here, status: 'sent', detail: '250 ok (mx.one.test, TLS)', route: mx('mx.one.test', true) },
        {
          position: 1,
          key: there,
          status: 'deferred',
          detail: '421 4.7.0 Try later (mx.two.test, no TLS)',
          route: mx('mx.two.test', false),
        },
        {
          position: 2,
          key: gone,
          status: 'failed',
          detail: `${UNKNOWN} (mx.three.test, TLS)`,
          refused: 'address',
          route: mx('mx.three.test', true),
        },
      ],
      hardBounces: [gone],
    });
  });

  it('leaves no route on a fate whose transaction reached no server', () => {
    const decision = decide(recipients.slice(0, 1), [failure([here], temporary('connect ETIMEDOUT'))]);
    expect(decision.fates).toEqual([{ position: 0, key: here, status: 'deferred', detail: 'connect ETIMEDOUT' }]);
  });

  it('names the host even when its reply names it too, so that TLS is always said', () => {
    const route = mx('mx.one.test', false);
    const decision = decide(recipients.slice(0, 1), [receipt([here], '250 2.0.0 mx.one.test accepted', [], route)]);
    expect(decision.detail).toBe('250 2.0.0 mx.one.test accepted (mx.one.test, no TLS)');
    expect(decision.fates[0]).toMatchObject({ detail: '250 2.0.0 mx.one.test accepted (mx.one.test, no TLS)', route });
  });

  it('reads a refusal as an address failure from the reply alone, not the route added to it', () => {
    const route = mx('mx.three.test', true);
    const decision = decide(recipients.slice(2), [
      failure([gone], new MailDeliveryError(UNKNOWN, true, 'RCPT TO', [refusal(gone, UNKNOWN)], route)),
    ]);
    expect(decision).toMatchObject({ status: 'failed', hardBounces: [gone] });
    expect(decision.fates[0]).toMatchObject({ refused: 'address', detail: `${UNKNOWN} (mx.three.test, TLS)` });
  });
});

describe(`${decideAttempt.name}: a retry hint in a deferring reply`, () => {
  const deferred = (...replies: string[]) =>
    decide(
      people(a, b, c).slice(0, replies.length),
      replies.map((reply, i) => failure([[a, b, c][i]], temporary(reply))),
      { retryDelays: [30, 120, 600] },
    );

  it.each([
    [
      'keeps the schedule when the hint is shorter than its delay (the retries are not used up sooner)',
      ['451 try again in 10 seconds'],
      30,
    ],
    ['honours a hint within the schedule, longer than its delay', ['451 try again in 5 minutes'], 300],
    ['honours a hint equal to the largest delay', ['451 try again in 10 minutes'], 600],
    ['keeps the schedule when the hint is beyond its largest delay', ['451 try again in 11 minutes'], 30],
    ['keeps the schedule when the reply names no time', ['451 4.7.1 Greylisted'], 30],
    [
      'takes the shortest among several deferred transactions: one domain waits no longer for another',
      ['451 retry in 60 s', '421 come back in 2 minutes'],
      60,
    ],
    [
      'takes the schedule of a transaction without a hint beside a longer hint',
      ['451 retry in 5 minutes', '421 busy'],
      30,
    ],
  ])('%s', (_, replies, seconds) => {
    expect(deferred(...replies)).toMatchObject({ status: 'deferred', retryAfterSeconds: seconds });
  });
});
