import { copiesOutcome, CopyResult } from './copies-outcome';
import { MailDeliveryError } from './mailer/mailer';

const DELAYS = [30, 120];

const accepted = (address: string, position: number): CopyResult => ({
  address,
  position,
  result: { receipt: { reply: `250 2.0.0 Ok: queued as ${position}`, rejected: [] } },
});
const greylisted = (address: string, position: number): CopyResult => ({
  address,
  position,
  result: { error: new MailDeliveryError('451 4.7.1 Greylisted', false) },
});
const refused = (address: string, position: number): CopyResult => ({
  address,
  position,
  result: { error: new MailDeliveryError('550 5.1.1 No such user', true) },
});

describe(copiesOutcome.name, () => {
  it('is sent when every copy was accepted', () => {
    expect(copiesOutcome([accepted('a@x.test', 0), accepted('b@x.test', 1)], undefined, 1, DELAYS)).toEqual({
      status: 'sent',
      detail: '2 of 2 copies accepted, one per recipient: 250 2.0.0 Ok: queued as 0',
    });
  });

  it('defers the copies refused for now, naming them with their replies, and retries neither the accepted nor the refused for good', () => {
    const results = [
      accepted('a@x.test', 0),
      greylisted('b@x.test', 1),
      refused('c@x.test', 2),
      greylisted('d@x.test', 3),
      accepted('e@x.test', 4),
    ];
    expect(copiesOutcome(results, undefined, 1, DELAYS)).toEqual({
      status: 'deferred',
      detail:
        '2 of 5 copies accepted, one per recipient: 250 2.0.0 Ok: queued as 0' +
        ' (pending: b@x.test (451 4.7.1 Greylisted), d@x.test (451 4.7.1 Greylisted))' +
        ' (refused: c@x.test (550 5.1.1 No such user))',
      retryAfterSeconds: 30,
      copies: { pending: [1, 3], accepted: 2 },
    });
  });

  it('defers with no copy accepted yet, leaving out the copies refused for good', () => {
    expect(copiesOutcome([refused('a@x.test', 0), greylisted('b@x.test', 1)], undefined, 2, DELAYS)).toEqual({
      status: 'deferred',
      detail:
        '0 of 2 copies accepted, one per recipient (pending: b@x.test (451 4.7.1 Greylisted)) (refused: a@x.test (550 5.1.1 No such user))',
      retryAfterSeconds: 120,
      copies: { pending: [1], accepted: 0 },
    });
  });

  it('counts the copies earlier attempts got accepted: a retry that sends the rest is sent', () => {
    expect(copiesOutcome([accepted('b@x.test', 1)], { pending: [1], accepted: 2 }, 2, DELAYS)).toEqual({
      status: 'sent',
      detail: '1 of the 1 pending copies accepted (3 in all), one per recipient: 250 2.0.0 Ok: queued as 1',
    });
  });

  it('carries the count of accepted copies into the next deferral', () => {
    const outcome = copiesOutcome(
      [accepted('b@x.test', 1), greylisted('d@x.test', 3)],
      { pending: [1, 3], accepted: 2 },
      2,
      DELAYS,
    );
    expect(outcome).toMatchObject({
      status: 'deferred',
      retryAfterSeconds: 120,
      copies: { pending: [3], accepted: 3 },
    });
  });

  it('is sent on the last attempt when any copy was ever accepted, naming those still refused for now as refused', () => {
    expect(copiesOutcome([greylisted('b@x.test', 1)], { pending: [1], accepted: 2 }, 3, DELAYS)).toEqual({
      status: 'sent',
      detail:
        '0 of the 1 pending copies accepted (2 in all), one per recipient (refused: b@x.test (451 4.7.1 Greylisted, gave up after 3 attempts))',
    });
  });

  it('fails on the last attempt when no copy was ever accepted', () => {
    expect(
      copiesOutcome([greylisted('a@x.test', 0), refused('b@x.test', 1)], { pending: [0, 1], accepted: 0 }, 3, DELAYS),
    ).toEqual({
      status: 'failed',
      detail:
        '0 of the 2 pending copies accepted (0 in all), one per recipient' +
        ' (refused: a@x.test (451 4.7.1 Greylisted, gave up after 3 attempts), b@x.test (550 5.1.1 No such user))',
    });
  });

  it('fails at once when every copy was refused for good, even with attempts left', () => {
    expect(copiesOutcome([refused('a@x.test', 0), refused('b@x.test', 1)], undefined, 1, DELAYS)).toEqual({
      status: 'failed',
      detail:
        '0 of 2 copies accepted, one per recipient (refused: a@x.test (550 5.1.1 No such user), b@x.test (550 5.1.1 No such user))',
    });
  });

  it('is sent when the copies a retry named were all left out since (suppressed), some having been accepted before', () => {
    expect(copiesOutcome([], { pending: [1], accepted: 1 }, 2, DELAYS)).toMatchObject({ status: 'sent' });
  });

  it('names a transport failure without a message', () => {
    const results: CopyResult[] = [
      accepted('a@x.test', 0),
      { address: 'b@x.test', position: 1, result: { error: undefined } },
    ];
    expect(copiesOutcome(results, undefined, 1, DELAYS).detail).toContain('(pending: b@x.test (the transport failed))');
  });
});
