import { InvalidInputError, PayloadTooLargeError, RateLimitedError } from '../../platform/problem/problem.errors';
import { smtpReply } from '../../platform/smtp/smtp-reply';
import { replyToRefusal } from './smtp-replies';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

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
