import { classify, Failure, gaveUp } from './classify';

describe('classify', () => {
  it.each<[string, Failure, ReturnType<typeof classify>]>([
    // About the address itself: suppressed.
    [
      '5.1.1 user unknown',
      { action: 'failed', status: '5.1.1', diagnostic: '550 5.1.1 <a@example.org>: User unknown' },
      'bounce',
    ],
    ['5.1.2 bad domain', { action: 'failed', status: '5.1.2', diagnostic: 'Host or domain name not found' }, 'bounce'],
    [
      '5.1.3 bad syntax',
      { action: 'failed', status: '5.1.3', diagnostic: '501 5.1.3 Bad recipient address syntax' },
      'bounce',
    ],
    [
      '5.1.6 moved',
      { action: 'failed', status: '5.1.6', diagnostic: '551 5.1.6 User has moved; please try <b@example.org>' },
      'bounce',
    ],
    [
      '5.1.10 null MX (RFC 7505)',
      { action: 'failed', status: '5.1.10', diagnostic: '556 5.1.10 Recipient address has null MX' },
      'bounce',
    ],
    [
      '5.4.4 with a domain that does not exist',
      { action: 'failed', status: '5.4.4', diagnostic: 'Host or domain name not found. Name service error' },
      'bounce',
    ],
    [
      'a vague 5.1.0 the words settle',
      { action: 'failed', status: '5.1.0', diagnostic: '550 5.1.0 No such user here' },
      'bounce',
    ],
    [
      '5.0.0 and words answering RCPT TO (Postfix says when)',
      {
        action: 'failed',
        status: '5.0.0',
        diagnostic: '550 No such user here',
        context: 'said: 550 No such user here (in reply to RCPT TO command)',
      },
      'bounce',
    ],
    [
      'words answering RCPT TO in a Sendmail transcript',
      {
        diagnostic: '550 <a@example.org>... User unknown',
        permanence: 'permanent',
        context: '>>> RCPT To:<a@example.org>\n<<< 550 <a@example.org>... User unknown',
      },
      'bounce',
    ],
    // Permanent, but not about the address: bounced, kept.
    ['5.2.2 mailbox full', { action: 'failed', status: '5.2.2', diagnostic: '552 5.2.2 Mailbox full' }, 'soft'],
    [
      '5.7.1 spam block',
      { action: 'failed', status: '5.7.1', diagnostic: '550 5.7.1 Message rejected as spam' },
      'soft',
    ],
    [
      '5.3.4 too large',
      { action: 'failed', status: '5.3.4', diagnostic: '552 5.3.4 Message size exceeds fixed limit' },
      'soft',
    ],
    ['5.4.7 expired', { action: 'failed', status: '5.4.7', diagnostic: 'delivery time expired' }, 'soft'],
    // A relay's reply during delivery, as delivery passes it (the reply alone, no report around it).
    [
      'a live 550 5.1.1 RCPT refusal',
      { diagnostic: '550 5.1.1 <x@example.org>: Recipient address rejected: User unknown' },
      'bounce',
    ],
    [
      'a live 5.2.1 "User unknown": no report says it answered RCPT, so the code decides',
      { diagnostic: '550 5.2.1 <x@example.org>: Recipient address rejected: User unknown' },
      'soft',
    ],
    [
      'a live "User unknown" under a catch-all 5.0.0',
      { diagnostic: '550 5.0.0 <x@example.org>: User unknown' },
      'soft',
    ],
    ['a live 452 quota reply', { diagnostic: '452 4.2.2 Mailbox full' }, 'delay'],
    [
      'a 4.1.1 given up on, words agreeing (a relay giving up never suppresses: a 450 "user unknown" is often a server unsure)',
      {
        action: 'failed',
        status: '4.1.1',
        diagnostic: '450 4.1.1 <x@example.org>: User unknown in virtual alias table',
      },
      'soft',
    ],
    [
      'a 4.1.1 given up on, words disagreeing',
      { action: 'failed', status: '4.1.1', diagnostic: '450 4.1.1 <x@example.org>: Mailbox temporarily locked' },
      'soft',
    ],
    [
      '5.1.8 our sender refused',
      { action: 'failed', status: '5.1.8', diagnostic: '553 5.1.8 Sender address rejected: Domain not found' },
      'soft',
    ],
    [
      '5.1.1 whose words say the mailbox is full',
      { action: 'failed', status: '5.1.1', diagnostic: '550 5.1.1 mailbox is full' },
      'soft',
    ],
    [
      '5.1.1 beside a 5.7.1 in the diagnostic',
      { action: 'failed', status: '5.1.1', diagnostic: '550 5.7.1 Delivery not authorized' },
      'soft',
    ],
    [
      '5.2.1 "user unknown" (X.2: the mailbox exists)',
      { action: 'failed', status: '5.2.1', diagnostic: '550 5.2.1 User Unknown' },
      'soft',
    ],
    [
      '5.0.0 with no code from the remote server, and no word of when',
      { action: 'failed', status: '5.0.0', diagnostic: '550 User unknown' },
      'soft',
    ],
    [
      'words answering RCPT TO that say something else',
      {
        action: 'failed',
        status: '5.0.0',
        diagnostic: '554 Relay access denied',
        context: '(in reply to RCPT TO command)',
      },
      'soft',
    ],
    [
      'words alone, without a status code',
      { diagnostic: 'Sorry, no mailbox here by that name.', permanence: 'permanent' },
      'soft',
    ],
    [
      'a failure without any code or words about the address',
      { action: 'failed', diagnostic: 'Connection refused' },
      'soft',
    ],
    [
      'a relay giving up on a 4.x.x',
      { action: 'failed', status: '4.4.7', diagnostic: 'retry timeout exceeded' },
      'soft',
    ],
    [
      '5.1.1 refused at DATA (the report text says so)',
      {
        action: 'failed',
        status: '5.1.1',
        diagnostic: '550 5.1.1 Unknown user',
        context: 'said: 550 Unknown user (in reply to end of DATA command)',
      },
      'soft',
    ],
    [
      '5.1.1 beside report text saying the disk is full',
      { action: 'failed', status: '5.1.1', diagnostic: '550 5.1.1 User Unknown', context: 'Not enough disk space' },
      'soft',
    ],
    // Not failures.
    ['delayed', { action: 'delayed', status: '4.4.1', diagnostic: 'Connection timed out' }, 'delay'],
    ['a 4.x.x without an Action', { status: '4.2.2', diagnostic: '452 4.2.2 Mailbox full' }, 'delay'],
    ['delivered', { action: 'delivered', status: '2.0.0', diagnostic: '250 OK' }, 'other'],
    ['relayed', { action: 'relayed', status: '2.0.0', diagnostic: '' }, 'other'],
    ['expanded', { action: 'expanded', status: '2.0.0', diagnostic: '' }, 'other'],
    ['nothing to go on', { diagnostic: 'something happened' }, undefined],
  ])('%s', (_, failure, expected) => {
    expect(classify(failure)).toBe(expected);
  });
});

describe('classify: an address code beside signs that the failure is temporary (no false hard bounce)', () => {
  // A live reply or a diagnostic as a server writes it, with nothing else to go on. The address
  // code says "no such address", but the reply code or the words say the server could not tell
  // now: the worst mistake is suppressing a good address, so the address must be kept.
  it.each<[string, string]>([
    ['a 4xx reply code beside 5.1.1 (the server will take it later)', '450 5.1.1 <a@example.org>: User unknown'],
    [
      'a 5.1.2 with "host not found, try again" (a DNS lookup that failed for now)',
      '550 5.1.2 Host or domain name not found. Name service error for name=example.org type=MX: Host not found, try again',
    ],
    [
      'a 5.1.2 host unknown "temporarily"',
      '550 5.1.2 <a@example.org>... Host unknown (Name server: example.org: host not found, temporarily)',
    ],
    ['a 5.1.1 whose directory lookup failed for now', '550 5.1.1 User unknown: directory lookup temporarily failed'],
    [
      'a 5.1.2 "DNS temporary failure"',
      '550 5.1.2 <a@example.org>: Recipient address rejected: Domain not found (DNS temporary failure)',
    ],
    ['a 5.1.1 "recipient temporarily unavailable"', '550 5.1.1 Recipient temporarily unavailable'],
  ])('%s', (_, diagnostic) => {
    expect(classify({ diagnostic })).not.toBe('bounce');
  });
});

describe('gaveUp', () => {
  it.each<[string, Failure, boolean]>([
    ['a retried 4.x.x', { action: 'failed', status: '4.4.7', diagnostic: 'retry timeout exceeded' }, true],
    ['Amazon SES "Message expired"', { action: 'failed', status: '5.4.7', diagnostic: 'Message expired' }, true],
    ['Exchange "QUEUE.Expired"', { action: 'failed', status: '5.0.0', diagnostic: '550 5.0.0 QUEUE.Expired' }, true],
    ['OpenSMTPD "Envelope expired"', { diagnostic: 'Envelope expired' }, true],
    [
      'a certificate that expired (a TLS refusal, not a retry period)',
      { action: 'failed', status: '5.7.0', diagnostic: 'TLS handshake failed: certificate expired' },
      false,
    ],
    [
      'a password that expired',
      { action: 'failed', status: '5.7.8', diagnostic: '535 5.7.8 Authentication failed: password expired' },
      false,
    ],
  ])('%s', (_, failure, expected) => {
    expect(gaveUp(failure)).toBe(expected);
  });
});
