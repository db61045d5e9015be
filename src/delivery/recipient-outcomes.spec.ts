import { MailDeliveryError } from './mailer/mailer';
import { asCopyResults, copyOutcomes, isAddressFailure, wholeOutcomes } from './recipient-outcomes';

const entries = ['Ada <Ada@example.com>', 'bob@example.com'];
const positions = new Map([
  ['ada@example.com', 0],
  ['bob@example.com', 1],
]);
const unknown = '550 5.1.1 <bob@example.com>: Recipient address rejected: User unknown';
const policy = '550 5.7.1 Rejected by policy';

describe('isAddressFailure (docs/delivery-and-deliverability.md: the report reader rule, for refusals during delivery)', () => {
  it('suppresses an unknown user refused at RCPT TO, nothing else', () => {
    expect(isAddressFailure(unknown, 'RCPT TO')).toBe(true);
    expect(isAddressFailure(policy, 'RCPT TO')).toBe(false);
    expect(isAddressFailure('452 4.2.2 Mailbox full', 'RCPT TO')).toBe(false);
    // The same words in reply to MAIL FROM or DATA are not about a recipient's address.
    expect(isAddressFailure(unknown, 'MAIL FROM')).toBe(false);
    expect(isAddressFailure(unknown, 'DATA')).toBe(false);
    expect(isAddressFailure(unknown, undefined)).toBe(false);
  });
});

describe(wholeOutcomes.name, () => {
  it('sends the accepted recipients and fails the one refused with its own reply, suppressing an unknown one', () => {
    const receipt = { reply: '250 ok', rejected: [{ address: 'bob@example.com', reply: unknown, permanent: true }] };
    expect(wholeOutcomes(entries, positions, { receipt }, { status: 'sent', detail: '250 ok' })).toEqual({
      fates: [
        { position: 0, key: 'ada@example.com', status: 'sent', detail: '250 ok' },
        { position: 1, key: 'bob@example.com', status: 'failed', detail: unknown, refused: 'address' },
      ],
      hardBounces: ['bob@example.com'],
    });
  });

  it('fails every recipient of a failed attempt, and suppresses none for a policy refusal', () => {
    const error = new MailDeliveryError(policy, true, 'RCPT TO', [
      { address: 'ada@example.com', reply: policy, permanent: true },
      { address: 'bob@example.com', reply: policy, permanent: true },
    ]);
    const out = wholeOutcomes(entries, positions, { error }, { status: 'failed', detail: policy });
    expect(out.fates.map((f) => [f.key, f.status, f.detail])).toEqual([
      ['ada@example.com', 'failed', policy],
      ['bob@example.com', 'failed', policy],
    ]);
    expect(out.hardBounces).toEqual([]);
    // Refused by the server, but not for the address itself: handed over, no bounce (docs/api.md#reading-back).
    expect(out.fates.map((f) => f.refused)).toEqual(['other', 'other']);
  });

  it('marks no refusal when no server answered (nothing was handed over)', () => {
    const error = new MailDeliveryError('connect ECONNREFUSED 127.0.0.1:25', true);
    const out = wholeOutcomes(entries, positions, { error }, { status: 'failed', detail: error.message });
    expect(out.fates.map((f) => [f.status, f.refused])).toEqual([
      ['failed', undefined],
      ['failed', undefined],
    ]);
  });

  it('defers every recipient of a deferred attempt, suppressing none', () => {
    const error = new MailDeliveryError(unknown, false);
    const out = wholeOutcomes(entries, positions, { error }, { status: 'deferred', detail: '421 busy' });
    expect(out.fates.map((f) => f.status)).toEqual(['deferred', 'deferred']);
    expect(out.hardBounces).toEqual([]);
  });
});

describe(copyOutcomes.name, () => {
  it('gives each copy its own result: sent, refused for good, refused for now while the message is retried', () => {
    const results = [
      { address: 'Ada@example.com', position: 0, result: { receipt: { reply: '250 ok', rejected: [] } } },
      { address: 'bob@example.com', position: 1, result: { error: new MailDeliveryError(unknown, true, 'RCPT TO') } },
      {
        address: 'cy@example.com',
        position: 2,
        result: { error: new MailDeliveryError('451 later', false, 'RCPT TO') },
      },
    ];
    const retried = copyOutcomes(results, { status: 'deferred', detail: '' }, 1);
    expect(retried.fates.map((f) => [f.key, f.status])).toEqual([
      ['ada@example.com', 'sent'],
      ['bob@example.com', 'failed'],
      ['cy@example.com', 'deferred'],
    ]);
    expect(retried.hardBounces).toEqual(['bob@example.com']);
    // No retry left: refused for now becomes failed, and is not suppressed.
    const last = copyOutcomes(results, { status: 'sent', detail: '' }, 3);
    expect(last.fates[2]).toEqual({
      position: 2,
      key: 'cy@example.com',
      status: 'failed',
      detail: '451 later (gave up after 3 attempts)',
      refused: 'other',
    });
    expect(last.fates[1]).toMatchObject({ status: 'failed', refused: 'address' });
  });
});

describe('a relay naming an internationalized domain in A-labels', () => {
  const idn = ['ada@example.com', 'Gone@Bücher.example'];
  const at = new Map([
    ['ada@example.com', 0],
    ['gone@bücher.example', 1],
  ]);
  const refusal = (reply: string, permanent: boolean) => ({ address: 'gone@xn--bcher-kva.example', reply, permanent });

  it('fails and suppresses the refused recipient, stored with its U-labels', () => {
    const receipt = { reply: '250 ok', rejected: [refusal(unknown, true)] };
    const out = wholeOutcomes(idn, at, { receipt }, { status: 'sent', detail: '250 ok' });
    expect(out.fates.map((f) => [f.key, f.status])).toEqual([
      ['ada@example.com', 'sent'],
      ['gone@bücher.example', 'failed'],
    ]);
    expect(out.hardBounces).toEqual(['gone@bücher.example']);
  });

  it('reads one refused for now as refused, not as accepted', () => {
    const receipt = { reply: '250 ok', rejected: [refusal('452 4.2.1 busy', false)] };
    const [, gone] = asCopyResults(idn, at, { receipt });
    expect('error' in gone.result && gone.result.error).toMatchObject({ permanent: false, command: 'RCPT TO' });
  });
});

describe(asCopyResults.name, () => {
  it('reads a receipt as one result per recipient, those refused as errors at RCPT TO', () => {
    const receipt = {
      reply: '250 ok',
      rejected: [{ address: 'bob@example.com', reply: '452 4.2.1 busy', permanent: false }],
    };
    const [ada, bob] = asCopyResults(entries, positions, { receipt });
    expect(ada).toEqual({
      address: 'Ada@example.com',
      position: 0,
      result: { receipt: { reply: '250 ok', rejected: [] } },
    });
    expect(bob.position).toBe(1);
    expect('error' in bob.result && bob.result.error).toMatchObject({ permanent: false, command: 'RCPT TO' });
  });
});
