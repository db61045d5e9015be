import { suppressedDetail, withoutSuppressed } from './suppressed-recipients';

describe('withoutSuppressed', () => {
  const message = {
    id: 'm1',
    recipients: ['Ada <Ada@Example.com>', 'grace@example.com'],
    cc: ['eve@example.com'],
    bcc: ['MALLORY@example.com', 'trent@example.com'],
  };

  it('drops the suppressed recipients from to, cc and bcc, by address key, and keeps the rest as given', () => {
    expect(withoutSuppressed(message, ['ada@example.com', 'eve@example.com', 'mallory@example.com'])).toEqual({
      id: 'm1',
      recipients: ['grace@example.com'],
      cc: [],
      bcc: ['trent@example.com'],
    });
  });

  it('keeps a message with no suppressed recipient as it is, null lists included', () => {
    const bare = { recipients: ['a@example.com'], cc: null, bcc: null };
    expect(withoutSuppressed(bare, [])).toBe(bare);
    expect(withoutSuppressed(bare, ['b@example.com'])).toEqual(bare);
  });
});

describe('suppressedDetail', () => {
  it('names the skipped recipients in a stable order', () => {
    expect(suppressedDetail(['b@example.com', 'a@example.com'], false)).toBe(
      'skipped suppressed recipients: a@example.com, b@example.com',
    );
  });

  it('says when every recipient is suppressed', () => {
    expect(suppressedDetail(['a@example.com'], true)).toBe('every recipient is suppressed: a@example.com');
  });
});
