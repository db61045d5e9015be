import { asciiReplyText } from './smtp-reply';

describe(asciiReplyText.name, () => {
  it('makes any text one line of printable ASCII, keeping what it can read', () => {
    expect(asciiReplyText('must be 1–998 characters — “quoted” ‘x’')).toBe('must be 1-998 characters - "quoted" \'x\'');
    expect(asciiReplyText('Zoë Émile naïve')).toBe('Zoe Emile naive');
    // No client text can end the reply line and start another.
    expect(asciiReplyText('a\r\n250 fake\0b\tc\u2028d')).toBe('a  250 fake b c d');
    expect(asciiReplyText('☕ 日本 🎉')).toBe('? ?? ?');
  });

  it('leaves printable ASCII as it is', () => {
    const all = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    expect(asciiReplyText(all)).toBe(all);
  });
});
