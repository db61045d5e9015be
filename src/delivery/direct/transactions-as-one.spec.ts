import { MailDeliveryError, Transaction } from '../mailer/mailer';
import { asOneResult } from './transactions-as-one';

const route = { host: 'mx.alpha.test', tls: true };
const accepted: Transaction = {
  recipients: ['a@alpha.test', 'gone@alpha.test'],
  result: {
    receipt: {
      reply: '250 2.0.0 Ok',
      rejected: [{ address: 'gone@alpha.test', reply: '550 5.1.1 No such user', permanent: true }],
      route,
    },
  },
};
const greylisted: Transaction = {
  recipients: ['g@grey.test'],
  result: {
    error: new MailDeliveryError('451 4.7.1 Greylisted', false, 'RCPT TO', [], { host: 'mx.grey.test', tls: false }),
  },
};
const nullMxReply = '550 5.1.10 Recipient address rejected: null.test accepts no mail (null MX, RFC 7505)';
const nullMx: Transaction = {
  recipients: ['x@null.test'],
  result: {
    error: new MailDeliveryError(nullMxReply, true, 'RCPT TO', [
      { address: 'x@null.test', reply: nullMxReply, permanent: true },
    ]),
  },
};

describe(asOneResult.name, () => {
  it("gives a single domain's receipt or error as it is", () => {
    expect(asOneResult([accepted])).toBe((accepted.result as { receipt: unknown }).receipt);
    expect(() => asOneResult([greylisted])).toThrow((greylisted.result as { error: Error }).error);
  });

  it("folds the failed domains' recipients into the receipt's refusals, each with its domain's reply", () => {
    expect(asOneResult([accepted, greylisted, nullMx])).toEqual({
      reply: '250 2.0.0 Ok',
      route,
      rejected: [
        { address: 'gone@alpha.test', reply: '550 5.1.1 No such user', permanent: true },
        { address: 'g@grey.test', reply: '451 4.7.1 Greylisted', permanent: false },
        { address: 'x@null.test', reply: nullMxReply, permanent: true },
      ],
    });
  });

  it('throws one error when no domain accepted: temporary unless every one is permanent', () => {
    let thrown: unknown;
    try {
      asOneResult([greylisted, nullMx]);
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(MailDeliveryError);
    expect(thrown).toMatchObject({
      message: `451 4.7.1 Greylisted; ${nullMxReply}`,
      permanent: false,
      command: 'RCPT TO',
      refused: [
        { address: 'g@grey.test', reply: '451 4.7.1 Greylisted', permanent: false },
        { address: 'x@null.test', reply: nullMxReply, permanent: true },
      ],
    });
  });

  it('throws a permanent refusal at RCPT TO when every domain refused for good', () => {
    const other: Transaction = {
      recipients: ['y@nowhere.test'],
      result: { error: new MailDeliveryError('550 5.1.2 no such domain', true, 'RCPT TO', []) },
    };

    expect(() => asOneResult([nullMx, other])).toThrow(
      expect.objectContaining({ permanent: true, command: 'RCPT TO' }) as Error,
    );
  });
});
