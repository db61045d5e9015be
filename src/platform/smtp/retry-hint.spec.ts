import { RETRY_HINT_READ_CHARS, retryHintSeconds } from './retry-hint';

describe('retryHintSeconds', () => {
  it.each([
    ['451 4.7.1 Greylisted, please try again in 5 minutes', 300],
    ['421 4.7.0 Try again later in 30 seconds', 30],
    ['450 4.2.0 retry in 300 seconds', 300],
    ['421 Too many connections, come back in 1 hour', 3_600],
    ['451 Temporary local problem - try again after 10 mins', 600],
    ['421 4.7.28 Our system has detected an unusual rate of unsolicited mail. Try again in 2 m', 120],
  ])('reads %s as %i s', (reply, seconds) => {
    expect(retryHintSeconds(reply)).toBe(seconds);
  });

  it.each([
    '421 4.7.0 Try again later',
    '450 4.2.1 The user you are trying to contact is receiving mail too quickly',
    '451 in 5 minutes',
    '',
  ])('finds no hint in %j', (reply) => {
    expect(retryHintSeconds(reply)).toBeUndefined();
  });

  it('reads a hint that ends at the last character it reads, and none that starts after it', () => {
    const hint = 'try again in 5 minutes';
    const atEdge = `${'x'.repeat(RETRY_HINT_READ_CHARS - hint.length - 1)} ${hint}`;
    expect(atEdge).toHaveLength(RETRY_HINT_READ_CHARS);
    expect(retryHintSeconds(atEdge)).toBe(300);
    expect(retryHintSeconds(`${'x'.repeat(RETRY_HINT_READ_CHARS)} ${hint}`)).toBeUndefined();
  });
});
