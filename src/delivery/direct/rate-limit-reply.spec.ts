import { isRateLimitReply, RATE_LIMIT_REPLY_READ_CHARS } from './rate-limit-reply';

describe('isRateLimitReply', () => {
  it.each([
    // Any 421: the server closes the channel.
    ['421 Service not available, closing transmission channel'],
    ['421 4.7.0 mx.example.net Error: too many connections from 192.0.2.1'],
    // Gmail.
    [
      '421-4.7.28 Our system has detected an unusual rate of unsolicited mail originating from your IP address.\r\n' +
        '421 4.7.28 To protect our users from spam, mail sent from your IP address has been temporarily rate limited.',
    ],
    [
      '450-4.2.1 The user you are trying to contact is receiving mail at a rate that\r\n' +
        '450-4.2.1 prevents additional messages from being delivered. Please resend your\r\n' +
        '450 4.2.1 message at a later point. https://support.google.com/mail/?p=ReceivingRate',
    ],
    ['450 4.2.1 The user you are trying to contact is receiving mail too quickly'],
    // Microsoft.
    [
      '451 4.7.500 Server busy. Please try again later from [192.0.2.1]. (S77719) [BN8NAM12FT010.eop-nam12.prod.protection.outlook.com]',
    ],
    ['451 4.7.650 The mail server [192.0.2.1] has been temporarily rate limited due to IP reputation.'],
    // Yahoo.
    ['421 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints'],
    ['451 4.7.0 [TSS04] Messages from 192.0.2.1 temporarily deferred due to unexpected volume or user complaints'],
    ['450 4.7.0 [TS01] Messages from 192.0.2.1 temporarily deferred due to user complaints'],
    // Postfix smtpd_client_message_rate_limit and friends.
    ['450 4.7.1 Error: too much mail from 192.0.2.1'],
    ['452 4.3.2 Error: too many messages from 192.0.2.1'],
    ['450 4.7.1 Error: too many connections from 192.0.2.1'],
    ['451 4.7.1 You are sending too fast, slow down'],
    ['451 Rate limit exceeded, try again in 5 minutes'],
  ])('reads %j as too fast', (reply) => {
    expect(isRateLimitReply(reply)).toBe(true);
  });

  it.each([
    ['451 4.7.1 Greylisted, please try again later'],
    ['450 4.2.0 <to@example.com>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/'],
    ['452 4.2.2 Mailbox full'],
    ['452-4.2.2 The email account that you tried to reach is over quota.'],
    ['452 4.5.3 Error: too many recipients'],
    ['451 4.3.0 Temporary local problem, please try again later'],
    ['450 4.1.8 <bounce@example.com>: Sender address rejected: Domain not found'],
    // Not a 4xx: a 5xx saying the same words is a refusal, which slows nothing.
    ['550 5.7.1 Rate limit exceeded, message refused'],
    ['250 2.0.0 Ok: queued'],
    [''],
    ['Error: too much mail'],
  ])('reads %j as not too fast', (reply) => {
    expect(isRateLimitReply(reply)).toBe(false);
  });

  it('reads a wording that ends at the last character it reads, and none that ends one past it', () => {
    const wording = 'too much mail from 192.0.2.1';
    const atEdge = `450 ${'x'.repeat(RATE_LIMIT_REPLY_READ_CHARS - wording.length - 5)} ${wording}`;
    expect(atEdge).toHaveLength(RATE_LIMIT_REPLY_READ_CHARS);
    expect(isRateLimitReply(atEdge)).toBe(true);

    // One past: the read stops at "too much mai", the wording's last character left out.
    const onePast = `450 ${'x'.repeat(RATE_LIMIT_REPLY_READ_CHARS - 'too much mail'.length - 4)} too much mail`;
    expect(onePast).toHaveLength(RATE_LIMIT_REPLY_READ_CHARS + 1);
    expect(isRateLimitReply(onePast)).toBe(false);
  });
});
