import { AttemptInput, decideAttempt } from './attempt-decision';
import { MailDeliveryError, Transaction } from './mailer/mailer';
import {
  a,
  b,
  c,
  d,
  e,
  UNKNOWN,
  GREYLISTED,
  people,
  failure,
  refusal,
  temporary,
  permanent,
  copy,
  decide,
  statuses,
} from '../../test/support/delivery/attempt-decision-cases';

describe(`${decideAttempt.name}: one copy per recipient`, () => {
  const copies = (transactions: Transaction[], fields: Partial<AttemptInput> = {}) =>
    decide(people(a, b, c, d, e), transactions, { copies: true, ...fields });
  const greylisted = () => temporary(GREYLISTED, 'RCPT TO');
  const noSuchUser = () => permanent('550 5.1.1 No such user', 'RCPT TO');

  it('is sent when every copy was accepted', () => {
    expect(copies([copy(a, '250 2.0.0 Ok: queued as 0'), copy(b, '250 2.0.0 Ok: queued as 1')])).toMatchObject({
      status: 'sent',
      detail: '2 of 2 copies accepted, one per recipient: 250 2.0.0 Ok: queued as 0',
    });
  });

  it('defers the copies refused for now, naming them with their replies, and retries neither the accepted nor the refused for good', () => {
    const decision = copies([
      copy(a, '250 2.0.0 Ok: queued as 0'),
      copy(b, greylisted()),
      copy(c, noSuchUser()),
      copy(d, greylisted()),
      copy(e, '250 2.0.0 Ok: queued as 4'),
    ]);
    expect(decision).toMatchObject({
      status: 'deferred',
      detail:
        '2 of 5 copies accepted, one per recipient: 250 2.0.0 Ok: queued as 0' +
        ' (pending: b@x.test (451 4.7.1 Greylisted), d@x.test (451 4.7.1 Greylisted))' +
        ' (refused: c@x.test (550 5.1.1 No such user))',
      retryAfterSeconds: 30,
      copies: { pending: [1, 3], accepted: 2 },
    });
    expect(statuses(decision)).toEqual([
      [a, 'sent'],
      [b, 'deferred'],
      [c, 'failed'],
      [d, 'deferred'],
      [e, 'sent'],
    ]);
  });

  it('defers with no copy accepted yet, leaving out the copies refused for good', () => {
    expect(copies([copy(a, noSuchUser()), copy(b, greylisted())], { attempt: 2 })).toMatchObject({
      status: 'deferred',
      detail:
        '0 of 2 copies accepted, one per recipient (pending: b@x.test (451 4.7.1 Greylisted)) (refused: a@x.test (550 5.1.1 No such user))',
      retryAfterSeconds: 120,
      copies: { pending: [1], accepted: 0 },
    });
  });

  it('counts the copies earlier attempts got accepted: a retry that sends the rest is sent', () => {
    const decision = copies([copy(b, '250 2.0.0 Ok: queued as 1')], {
      attempt: 2,
      progress: { pending: [1], accepted: 2 },
    });
    expect(decision).toMatchObject({
      status: 'sent',
      detail: '1 of the 1 pending copies accepted (3 in all), one per recipient: 250 2.0.0 Ok: queued as 1',
    });
    expect(decision).not.toHaveProperty('copies');
  });

  it('carries the count of accepted copies into the next deferral', () => {
    const decision = copies([copy(b, '250 ok'), copy(d, greylisted())], {
      attempt: 2,
      progress: { pending: [1, 3], accepted: 2 },
    });
    expect(decision).toMatchObject({
      status: 'deferred',
      retryAfterSeconds: 120,
      copies: { pending: [3], accepted: 3 },
    });
  });

  it('is sent on the last attempt when any copy was ever accepted, naming those still refused for now as refused', () => {
    const decision = copies([copy(b, greylisted())], { attempt: 3, progress: { pending: [1], accepted: 2 } });
    expect(decision).toMatchObject({
      status: 'sent',
      detail:
        '0 of the 1 pending copies accepted (2 in all), one per recipient (refused: b@x.test (451 4.7.1 Greylisted, gave up after 3 attempts))',
      hardBounces: [],
    });
    // Refused for now to the last: failed, not suppressed.
    expect(decision.fates).toEqual([
      {
        position: 1,
        key: b,
        status: 'failed',
        detail: '451 4.7.1 Greylisted (gave up after 3 attempts)',
        refused: 'other',
      },
    ]);
  });

  it('fails on the last attempt when no copy was ever accepted', () => {
    const decision = copies([copy(a, greylisted()), copy(b, noSuchUser())], {
      attempt: 3,
      progress: { pending: [0, 1], accepted: 0 },
    });
    expect(decision).toMatchObject({
      status: 'failed',
      detail:
        '0 of the 2 pending copies accepted (0 in all), one per recipient' +
        ' (refused: a@x.test (451 4.7.1 Greylisted, gave up after 3 attempts), b@x.test (550 5.1.1 No such user))',
    });
  });

  it('fails at once when every copy was refused for good, even with attempts left', () => {
    expect(copies([copy(a, noSuchUser()), copy(b, noSuchUser())])).toMatchObject({
      status: 'failed',
      detail:
        '0 of 2 copies accepted, one per recipient (refused: a@x.test (550 5.1.1 No such user), b@x.test (550 5.1.1 No such user))',
    });
  });

  it('is sent when the copies a retry named were all left out since (suppressed), some having been accepted before', () => {
    expect(copies([], { attempt: 2, progress: { pending: [1], accepted: 1 } })).toMatchObject({ status: 'sent' });
  });

  it('names a transport failure without a message', () => {
    expect(copies([copy(a, '250 ok'), failure([b], undefined)]).detail).toContain(
      '(pending: b@x.test (the transport failed))',
    );
  });

  it('defers a copy the attempt ran out of time for, as a temporary failure', () => {
    const outOfTime = new Error('not attempted: the attempt ran out of time (it is retried)');
    expect(copies([copy(a, '250 ok'), failure([b], outOfTime)])).toMatchObject({
      status: 'deferred',
      copies: { pending: [1], accepted: 1 },
      fates: [{ status: 'sent' }, { status: 'deferred', detail: outOfTime.message }],
    });
  });

  it("names a copy refused whole with the copy's own error, which names the relay that gave it", () => {
    const relay = '(relay 127.0.0.1:2525)';
    const error = new MailDeliveryError(`${UNKNOWN} ${relay}`, true, 'RCPT TO', [refusal(b, UNKNOWN)]);
    const decision = copies([copy(a, `250 ok ${relay}`), failure([b], error)]);
    expect(decision).toMatchObject({
      status: 'sent',
      detail: `1 of 2 copies accepted, one per recipient: 250 ok ${relay} (refused: b@x.test (${UNKNOWN} ${relay}))`,
      hardBounces: [b],
    });
    expect(decision.fates[1]).toMatchObject({ status: 'failed', detail: `${UNKNOWN} ${relay}`, refused: 'address' });
  });

  it('suppresses a copy refused as unknown at RCPT TO, and marks who refused each failed one', () => {
    const decision = copies([
      copy(a, '250 ok'),
      copy(b, permanent(UNKNOWN, 'RCPT TO')),
      copy(c, temporary('451 later', 'RCPT TO')),
    ]);
    expect(decision.hardBounces).toEqual([b]);
    expect(decision.fates[1]).toMatchObject({ status: 'failed', refused: 'address' });
    expect(decision.fates[2]).toEqual({ position: 2, key: c, status: 'deferred', detail: '451 later' });
  });
});
