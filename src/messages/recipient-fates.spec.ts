import { CANCELED_DETAIL, canceledFates, initialFates, RecipientFate } from './recipient-fates';

describe(initialFates.name, () => {
  it('lists to, cc then bcc, the address part as given, pending or suppressed with the reason', () => {
    const at = new Date('2026-03-01T10:00:00.123Z');
    const fates = initialFates(
      { to: ['Ada Lovelace <Ada@Example.com>'], cc: ['"Hopper, Grace" <grace@example.com>'], bcc: ['eve@example.com'] },
      new Map([['eve@example.com', 'unsubscribe']]),
      at,
    );
    expect(fates).toEqual([
      { email: 'Ada@Example.com', type: 'to', status: 'pending', detail: null, at: '2026-03-01T10:00:00.123Z' },
      { email: 'grace@example.com', type: 'cc', status: 'pending', detail: null, at: '2026-03-01T10:00:00.123Z' },
      {
        email: 'eve@example.com',
        type: 'bcc',
        status: 'suppressed',
        detail: 'unsubscribe',
        at: '2026-03-01T10:00:00.123Z',
      },
    ]);
  });
});

describe(canceledFates.name, () => {
  const fate = (email: string, status: RecipientFate['status']): RecipientFate => ({
    email,
    type: 'to',
    status,
    detail: null,
    at: '2026-03-01T10:00:00.000Z',
  });

  it('cancels the recipients still to be tried and keeps those accepted, refused or suppressed', () => {
    const fates = [
      fate('Sent@Example.com', 'sent'),
      fate('Later@Example.com', 'deferred'),
      fate('refused@example.com', 'failed'),
      fate('blocked@example.com', 'suppressed'),
      fate('waiting@example.com', 'pending'),
    ];
    expect(canceledFates(fates)).toEqual([
      { position: 1, key: 'later@example.com', status: 'canceled', detail: CANCELED_DETAIL },
      { position: 4, key: 'waiting@example.com', status: 'canceled', detail: CANCELED_DETAIL },
    ]);
  });
});
