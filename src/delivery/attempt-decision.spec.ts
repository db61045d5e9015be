import {
  AttemptInput,
  AttemptRecipient,
  decideAttempt,
  isAddressFailure,
  transactionResults,
} from './attempt-decision';
import { MailDeliveryError, MailReceipt, Refusal, Route, Transaction } from './mailer/mailer';

const DELAYS = [30, 120];
const UNKNOWN = '550 5.1.1 <bob@x.test>: Recipient address rejected: User unknown';
const POLICY = '550 5.7.1 Rejected by policy';
const GREYLISTED = '451 4.7.1 Greylisted';

/** The recipients an attempt tries, at positions 0, 1… in the order given. */
const people = (...addresses: string[]): AttemptRecipient[] =>
  addresses.map((address, position) => ({ address, key: address.toLowerCase(), position }));
const [a, b, c, d, e] = ['a@x.test', 'b@x.test', 'c@x.test', 'd@x.test', 'e@x.test'];

const receipt = (to: string[], reply = '250 2.0.0 Ok', rejected: Refusal[] = [], route?: Route): Transaction => ({
  recipients: to,
  result: { receipt: { reply, rejected, ...(route && { route }) } satisfies MailReceipt },
});
const failure = (to: string[], error: unknown): Transaction => ({ recipients: to, result: { error } });
const refusal = (address: string, reply: string, permanent = reply.startsWith('5')): Refusal => ({
  address,
  reply,
  permanent,
});
const temporary = (message = GREYLISTED, command?: string, route?: Route) =>
  new MailDeliveryError(message, false, command, [], route);
const permanent = (message: string, command?: string, refused: Refusal[] = []) =>
  new MailDeliveryError(message, true, command, refused);

/** One copy per recipient: each recipient's own transaction. */
const copy = (address: string, reply: string | MailDeliveryError) =>
  typeof reply === 'string' ? receipt([address], reply) : failure([address], reply);

function decide(
  recipients: AttemptRecipient[],
  transactions: Transaction[],
  fields: Partial<Omit<AttemptInput, 'recipients' | 'transactions'>> = {},
) {
  return decideAttempt({
    recipients,
    attempt: 1,
    copies: false,
    retryDelays: DELAYS,
    transactions: transactionResults(transactions, recipients),
    ...fields,
  });
}
const statuses = (decision: ReturnType<typeof decide>) => decision.fates.map((f) => [f.key, f.status]);

describe('isAddressFailure (docs/delivery-and-deliverability.md: the report reader rule, for refusals during delivery)', () => {
  it('suppresses an unknown user refused at RCPT TO, nothing else', () => {
    expect(isAddressFailure(UNKNOWN, 'RCPT TO')).toBe(true);
    expect(isAddressFailure(POLICY, 'RCPT TO')).toBe(false);
    expect(isAddressFailure('452 4.2.2 Mailbox full', 'RCPT TO')).toBe(false);
    // The same words in reply to MAIL FROM or DATA are not about a recipient's address.
    expect(isAddressFailure(UNKNOWN, 'MAIL FROM')).toBe(false);
    expect(isAddressFailure(UNKNOWN, 'DATA')).toBe(false);
    expect(isAddressFailure(UNKNOWN, undefined)).toBe(false);
  });
});

describe(`${decideAttempt.name}: recipients sharing one transaction`, () => {
  it.each<[string, Transaction[], number, Partial<ReturnType<typeof decide>>]>([
    [
      'the whole accepted: sent with the reply',
      [receipt([a, b], '250 OK: queued as 1')],
      1,
      { status: 'sent', detail: '250 OK: queued as 1', hardBounces: [] },
    ],
    [
      'some refused at RCPT with 5xx: sent, naming those refused',
      [receipt([a, b, c], '250 OK', [refusal(b, '550 5.1.1 unknown'), refusal(c, '550 5.1.1 unknown')])],
      1,
      { status: 'sent', detail: '250 OK (refused: b@x.test, c@x.test)' },
    ],
    [
      'a 5xx at DATA: failed at once, even with retries left',
      [failure([a, b], permanent('554 5.7.1 Message rejected as spam', 'DATA'))],
      1,
      { status: 'failed', detail: '554 5.7.1 Message rejected as spam', hardBounces: [] },
    ],
    [
      'a 4xx on attempt 1: deferred by the first delay, the next attempt sending the same',
      [failure([a, b], temporary('421 4.7.0 Too busy'))],
      1,
      { status: 'deferred', detail: '421 4.7.0 Too busy', retryAfterSeconds: 30 },
    ],
    [
      'a 4xx on attempt 2: deferred by the second delay',
      [failure([a, b], temporary('421 4.7.0 Too busy'))],
      2,
      { status: 'deferred', detail: '421 4.7.0 Too busy', retryAfterSeconds: 120 },
    ],
    [
      'a 4xx once the delays have run out: failed, saying after how many attempts',
      [failure([a, b], temporary('421 4.7.0 Too busy'))],
      3,
      { status: 'failed', detail: '421 4.7.0 Too busy (gave up after 3 attempts)' },
    ],
    [
      'a timeout (no reply): deferred',
      [failure([a], Object.assign(new Error('Timeout'), { code: 'ETIMEDOUT' }))],
      1,
      { status: 'deferred', detail: 'Timeout', retryAfterSeconds: 30 },
    ],
    [
      "a transport's own failure (not a server's reply): retried like a temporary one",
      [failure([a], Object.assign(new Error('EACCES: permission denied, open /outbox/1.eml'), { code: 'EACCES' }))],
      1,
      { status: 'deferred', detail: 'EACCES: permission denied, open /outbox/1.eml', retryAfterSeconds: 30 },
    ],
  ])('%s', (_, transactions, attempt, expected) => {
    const decision = decide(people(a, b, c), transactions, { attempt });
    expect(decision).toMatchObject(expected);
    if (expected.status !== 'deferred') expect(decision).not.toHaveProperty('retryAfterSeconds');
    // A retry of a transaction that failed as a whole sends the same recipients: no progress to carry.
    expect(decision).not.toHaveProperty('copies');
  });

  it.each([[new Error('')], ['a string'], [undefined]])(
    'says "the transport failed" when the failure (%p) has no message',
    (error) => {
      expect(decide(people(a), [failure([a], error)])).toMatchObject({
        status: 'deferred',
        detail: 'the transport failed',
        retryAfterSeconds: 30,
      });
    },
  );

  it('fails the first attempt when there are no retry delays at all', () => {
    expect(decide(people(a), [failure([a], temporary('421 busy'))], { retryDelays: [] })).toMatchObject({
      status: 'failed',
      detail: '421 busy (gave up after 1 attempts)',
    });
  });

  it('sends the accepted, fails the one refused with its own reply, and suppresses an unknown one', () => {
    expect(decide(people(a, b), [receipt([a, b], '250 ok', [refusal(b, UNKNOWN)])])).toEqual({
      status: 'sent',
      detail: '250 ok (refused: b@x.test)',
      fates: [
        { position: 0, key: a, status: 'sent', detail: '250 ok' },
        { position: 1, key: b, status: 'failed', detail: UNKNOWN, refused: 'address' },
      ],
      hardBounces: [b],
    });
  });

  it('fails everyone when all are refused for a policy, refused by the server but none suppressed', () => {
    const error = permanent(POLICY, 'RCPT TO', [refusal(a, POLICY), refusal(b, POLICY)]);
    const decision = decide(people(a, b), [failure([a, b], error)]);
    expect(decision.status).toBe('failed');
    expect(decision.fates.map((f) => [f.key, f.status, f.detail, f.refused])).toEqual([
      [a, 'failed', POLICY, 'other'],
      [b, 'failed', POLICY, 'other'],
    ]);
    expect(decision.hardBounces).toEqual([]);
  });

  it('marks no refusal when no server answered (nothing was handed over)', () => {
    const decision = decide(people(a, b), [failure([a, b], permanent('connect ECONNREFUSED 127.0.0.1:25'))]);
    expect(decision.fates.map((f) => [f.status, f.refused])).toEqual([
      ['failed', undefined],
      ['failed', undefined],
    ]);
  });

  it('defers everyone of a deferred transaction, suppressing none, whatever the words', () => {
    const decision = decide(people(a, b), [failure([a, b], temporary(UNKNOWN))]);
    expect(statuses(decision)).toEqual([
      [a, 'deferred'],
      [b, 'deferred'],
    ]);
    expect(decision.hardBounces).toEqual([]);
  });

  it('defers those refused at RCPT with 4xx while the others are sent, and the retry sends those alone', () => {
    const decision = decide(people(a, b, c), [
      receipt([a, b, c], '250 ok', [refusal(b, '452 4.2.1 busy'), refusal(c, UNKNOWN)]),
    ]);
    expect(decision).toEqual({
      status: 'deferred',
      detail: `250 ok (pending: b@x.test (452 4.2.1 busy)) (refused: c@x.test (${UNKNOWN}))`,
      retryAfterSeconds: 30,
      copies: { pending: [1], accepted: 1 },
      fates: [
        { position: 0, key: a, status: 'sent', detail: '250 ok' },
        { position: 1, key: b, status: 'deferred', detail: '452 4.2.1 busy' },
        { position: 2, key: c, status: 'failed', detail: UNKNOWN, refused: 'address' },
      ],
      hardBounces: [c],
    });
  });

  it('judges each by its own refusal when all are refused, some for good and some for now', () => {
    const busy = '452 4.2.2 Mailbox busy';
    // nodemailer throws one error, with the temporary code, naming each refusal.
    const error = new MailDeliveryError(busy, false, 'RCPT TO', [refusal(a, UNKNOWN), refusal(b, busy)]);
    expect(decide(people(a, b), [failure([a, b], error)])).toMatchObject({
      status: 'deferred',
      detail: `${busy} (pending: b@x.test (${busy})) (refused: a@x.test (${UNKNOWN}))`,
      retryAfterSeconds: 30,
      copies: { pending: [1], accepted: 0 },
      fates: [
        { position: 0, status: 'failed', detail: UNKNOWN, refused: 'address' },
        { position: 1, status: 'deferred', detail: busy },
      ],
      hardBounces: [a],
    });
  });

  it('is sent at the last attempt for those accepted, failing without suppressing one still refused for now', () => {
    const decision = decide(people(a, b), [receipt([a, b], '250 ok', [refusal(b, '452 4.2.1 busy')])], { attempt: 3 });
    expect(decision).toEqual({
      status: 'sent',
      detail: '250 ok (refused: b@x.test)',
      fates: [
        { position: 0, key: a, status: 'sent', detail: '250 ok' },
        {
          position: 1,
          key: b,
          status: 'failed',
          detail: '452 4.2.1 busy (gave up after 3 attempts)',
          refused: 'other',
        },
      ],
      hardBounces: [],
    });
  });

  it('sends a retry of the pending recipients as one transaction, counting those accepted before', () => {
    const recipients = people(a, b, c).slice(1);
    const progress = { pending: [1, 2], accepted: 1 };
    expect(decide(recipients, [receipt([b, c], '250 ok')], { attempt: 2, progress })).toMatchObject({
      status: 'sent',
      detail: '250 ok',
    });
    // Still refused for now: deferred again, the progress carried.
    const again = decide(recipients, [failure([b, c], temporary())], { attempt: 2, progress: { ...progress } });
    expect(again).toMatchObject({ status: 'deferred', copies: { pending: [1, 2], accepted: 1 } });
    // Refused to the last: sent, for the one accepted before.
    const last = decide(recipients, [failure([b, c], temporary())], { attempt: 3, progress });
    expect(last).toMatchObject({ status: 'sent', detail: `${GREYLISTED} (gave up after 3 attempts)` });
  });

  it('finds a refusal naming an internationalized domain in A-labels, the fate keyed in U-labels', () => {
    const recipients = [
      { address: 'ada@x.test', key: 'ada@x.test', position: 0 },
      { address: 'Gone@Bücher.example', key: 'gone@bücher.example', position: 1 },
    ];
    const envelope = ['ada@x.test', 'Gone@Bücher.example'];
    const refused = (reply: string) => [refusal('gone@xn--bcher-kva.example', reply)];
    const gone = decide(recipients, [receipt(envelope, '250 ok', refused(UNKNOWN))]);
    expect(statuses(gone)).toEqual([
      ['ada@x.test', 'sent'],
      ['gone@bücher.example', 'failed'],
    ]);
    expect(gone.hardBounces).toEqual(['gone@bücher.example']);
    // Refused for now is read as refused, not as accepted.
    expect(statuses(decide(recipients, [receipt(envelope, '250 ok', refused('452 4.2.1 busy'))]))).toEqual([
      ['ada@x.test', 'sent'],
      ['gone@bücher.example', 'deferred'],
    ]);
  });
});

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
