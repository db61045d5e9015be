import { distinctRecipients, recipientCount, recipientLimitMessage } from './recipients';

describe(distinctRecipients.name, () => {
  it('keeps each address where it first appears, to before cc before bcc, spelled as first given', () => {
    const sut = distinctRecipients({
      to: ['Ada <Ada@example.com>', 'ada@EXAMPLE.com', 'grace@example.com'],
      cc: ['GRACE@example.com', 'Bob <bob@example.com>', 'bob@example.com'],
      bcc: ['"Ada, again" <ada@example.com>', 'eve@example.com'],
    });
    expect(sut).toEqual({
      to: ['Ada <Ada@example.com>', 'grace@example.com'],
      cc: ['Bob <bob@example.com>'],
      bcc: ['eve@example.com'],
    });
  });

  it('keeps what is not a string, and what is not a list, for validation to name', () => {
    expect(distinctRecipients({ to: ['a@x.io', 1, 'a@x.io'], cc: 'a@x.io' })).toEqual({
      to: ['a@x.io', 1],
      cc: 'a@x.io',
      bcc: undefined,
    });
  });
});

describe(recipientLimitMessage.name, () => {
  const fields = { to: ['a@x.io', 'b@x.io'], cc: ['B@x.io', 'c@x.io'], bcc: ['Cee <c@x.io>'] };

  it('counts to, cc and bcc together after repeats are dropped', () => {
    expect(recipientCount(fields)).toBe(3);
    expect(recipientLimitMessage(fields, 3)).toBeUndefined();
    expect(recipientLimitMessage(fields, 2)).toBe('must have at most 2 distinct recipients across to, cc and bcc');
  });

  it('speaks of `to` alone when there is no cc or bcc', () => {
    expect(recipientLimitMessage({ to: ['a@x.io', 'b@x.io'], cc: [] }, 1)).toBe(
      'must have at most 1 distinct recipients',
    );
  });
});
