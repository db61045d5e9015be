import { decideAttempt, isAddressFailure } from './attempt-decision';
import { MailDeliveryError, Transaction } from './mailer/mailer';
import {
  a,
  b,
  c,
  UNKNOWN,
  POLICY,
  GREYLISTED,
  people,
  receipt,
  failure,
  refusal,
  temporary,
  permanent,
  decide,
  statuses,
} from '../../test/support/delivery/attempt-decision-cases';

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
