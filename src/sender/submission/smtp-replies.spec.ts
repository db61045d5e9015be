import { InvalidInputError, PayloadTooLargeError, RateLimitedError } from '../../platform/problem/problem.errors';
import { asciiReplyText, replyToRefusal, smtpReply } from './smtp-replies';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

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

describe('every reply built here', () => {
  // The real validation's messages reach SMTP clients in the e2e tests (submission-hostile).
  it('is ASCII, whatever the refusal quotes', () => {
    const replies = [
      replyToRefusal(
        new InvalidInputError([
          { field: 'subject', message: 'must be 1–998 characters' },
          { field: 'Frőm', message: 'appears 2 times\r\n250 ok' },
        ]),
      ),
      replyToRefusal(new PayloadTooLargeError('The body is larger than 20 MiB — ☕.')),
      replyToRefusal(new RateLimitedError(600, 30, 'Too many requests… – retry')),
      smtpReply(535, 'Authentication failed: key “mr_…” unknown'),
    ];

    for (const reply of replies) expect(reply?.message).toMatch(PRINTABLE_ASCII);
    expect(replies[0]!.message).toBe('Message refused: subject must be 1-998 characters; From appears 2 times  250 ok');
  });
});
