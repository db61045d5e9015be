import { isEmailAddress } from '../../platform/validation/email-address';
import { escapeHtml } from '../../platform/http/plain-page';
import { confirmationPage, maskAddress } from './unsubscribe-pages';

describe('the unsubscribe pages', () => {
  it('escapes the five characters that are markup in text and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;amp;&#60;/a&#62;',
    );
  });

  it('shows the first character of an address and its domain', () => {
    expect(maskAddress('ada@example.com')).toBe('a…@example.com');
    expect(maskAddress('"a@b"@example.com')).toBe('"…@example.com');
    // A character outside the BMP is one character, not half of a surrogate pair.
    expect(maskAddress('𝒜da@example.com')).toBe('𝒜…@example.com');
  });

  it('masks the longest address a recipient can have, and puts it on the page escaped', () => {
    // 254 characters, RFC 5321's most: a local part of 64 and a domain of 189.
    const longest = `&${'a'.repeat(63)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect([longest.length, isEmailAddress(longest), isEmailAddress(`a${longest}`)]).toEqual([254, true, false]);
    expect(maskAddress(longest)).toBe(`&…${longest.slice(64)}`);
    expect(confirmationPage({ address: longest, sender: 'news@example.com' })).toContain(
      `<strong>&#38;…${longest.slice(64)}</strong>`,
    );
  });
});
