import { RecipientTokens } from './recipient-token';

const KEY = 'k'.repeat(32);
const ID = '0190b6f4-7c1d-7a3e-9f00-123456789abc';

describe('RecipientTokens', () => {
  const verp = new RecipientTokens(KEY, 'verp');

  it('names the message and recipient it was made for, in a VERP local part', () => {
    const token = verp.encode({ messageId: ID, recipient: 513 });
    expect(token).toMatch(/^[0-9a-f]{54}$/);
    expect(`bounces+${token}`.length).toBeLessThanOrEqual(64);
    expect(verp.decode(token)).toEqual({ messageId: ID, recipient: 513 });
    expect(verp.decode(token.toUpperCase())).toEqual({ messageId: ID, recipient: 513 });
  });

  it('refuses a token altered anywhere, made with another key, or for another purpose', () => {
    const token = verp.encode({ messageId: ID, recipient: 0 });
    for (let i = 0; i < token.length; i++) {
      const altered = token.slice(0, i) + (token[i] === '0' ? '1' : '0') + token.slice(i + 1);
      expect(verp.decode(altered)).toBeUndefined();
    }
    expect(new RecipientTokens('x'.repeat(32), 'verp').decode(token)).toBeUndefined();
    expect(new RecipientTokens(KEY, 'unsubscribe').decode(token)).toBeUndefined();
  });

  it('refuses what is not a token: too short, one past the length, other characters', () => {
    const token = verp.encode({ messageId: ID, recipient: 0 });
    for (const bad of ['', token.slice(1), `${token}0`, token.replace(/.$/, 'g'), `${token.slice(0, -1)} `]) {
      expect(verp.decode(bad)).toBeUndefined();
    }
  });

  it('makes tokens only for a message id and a position that fit', () => {
    expect(() => verp.encode({ messageId: 'not-an-id', recipient: 0 })).toThrow(RangeError);
    expect(() => verp.encode({ messageId: ID, recipient: 65_536 })).toThrow(RangeError);
    expect(verp.decode(verp.encode({ messageId: ID, recipient: 65_535 }))).toEqual({
      messageId: ID,
      recipient: 65_535,
    });
  });
});
