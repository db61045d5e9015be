import { dsn, hard, kept, notice, summary } from '../../../test/support/report-samples';
import { MAX_DIAGNOSTIC_LENGTH, readReports } from './report-reader';

/*
 * The general rules of the reader (reports/classify.ts): families of wording and RFC 3463 codes,
 * read the same whoever writes them. Every report here is written for this test in no particular
 * server's style, from a reporter the reader cannot identify (it identifies none any more).
 */
const RCPT_REFUSAL = (recipient: string, reply: string) =>
  dsn(
    'MAILER-DAEMON@relay.example.net',
    `Delivery to the following recipient failed permanently:\n\n${recipient}\n\nhost mx.example.org said: ${reply} (in reply to RCPT TO command)`,
    `Final-Recipient: rfc822; ${recipient}\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: smtp; ${reply}`,
  );

/** A notice of the reporting server's own verdict: no remote server's reply quoted, no status code. */
const ownVerdict = (recipient: string, reason: string) =>
  notice(
    'Mail System <MAILER-DAEMON@gateway.example.net>',
    'Delivery failure',
    `Your message could not be delivered to the following recipient.\n\n<${recipient}>:\n    ${reason}\n`,
    'MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n',
  );

describe('readReports: each family of address wording, answering RCPT TO under a catch-all 5.0.0', () => {
  it.each<[string, string]>([
    ['no such user', '550 <gone@example.org>: no such mailbox here'],
    ['no such user', '550 gone@example.org: the account you addressed does not exist'],
    ['no such user', '550 Unknown recipient gone@example.org'],
    ['not found', '550 Recipient address gone@example.org was not found in this organization'],
    ['not found', '550 The mailbox could not be found'],
    ['invalid recipient', '550 Invalid mailbox: gone@example.org'],
    ['invalid recipient', '550 gone@example.org is not a valid recipient here'],
    ['not in the directory', '550 Addressee gone@example.org not listed in the staff directory'],
    ['no such domain', '550 Domain example.org does not exist'],
    ['moved', '551 User has moved, try new@example.com'],
  ])('%s: "%s"', async (_, reply) => {
    expect(await RCPT_REFUSAL('gone@example.org', reply)).toEqual(hard('gone@example.org'));
  });

  it.each<[string, string]>([
    ['a full mailbox', '550 <gone@example.org>: user unknown or mailbox full'],
    ['a policy refusal', '550 Recipient rejected by policy: no such user'],
    ['a spam block', '550 Message looked like spam; user unknown'],
    ['a mailbox switched off', '550 Account gone@example.org is disabled'],
    ['words about something else', '550 Rejected'],
  ])('keeps the address on %s: "%s"', async (_, reply) => {
    expect(await RCPT_REFUSAL('gone@example.org', reply)).toEqual(kept('gone@example.org'));
  });
});

describe("readReports: the reporting server's own directory or DNS lookup, with no remote reply", () => {
  it.each<[string, string]>([
    ['its directory lacks the name', 'User Jo Bloggs not listed in the corporate directory'],
    ['its directory, in French', "Destinataire non r\u00e9pertori\u00e9 dans l'annuaire de la soci\u00e9t\u00e9"],
    ['its lookup found nothing', 'Recipient not found by directory lookup'],
    ['the domain does not exist', 'Domain does not exist'],
    ['an unknown host', 'unknown host example.invalid'],
    ['no mail host', 'No MX record found for domain example.org'],
    ['no mail host, after all lookups', 'all host address lookups failed permanently'],
    ['no SMTP service (a null MX)', 'an MX record indicated no SMTP service'],
  ])('reads %s as hard', async (_, reason) => {
    expect(await ownVerdict('gone@example.org', reason)).toEqual(hard('gone@example.org'));
  });

  it.each<[string, string]>([
    // A filter that refuses mail pretends "user unknown"; it never pretends a lookup.
    ['mailbox words: a filter may say them', 'User unknown'],
    ['mailbox words in brackets', '[No such user]'],
    ['the same words with a remote reply and no word of when', 'host mx.example.org said: 550 User unknown'],
    ['a lookup after DATA', 'host mx.example.org said: 550 Domain does not exist (in reply to end of DATA command)'],
    ['a lookup the server hedges', 'The account or domain may not exist'],
    ['Exim "Unrouteable address" (a router may say it of a real domain)', 'Unrouteable address'],
  ])('keeps the address on %s', async (_, reason) => {
    expect(await ownVerdict('gone@example.org', reason)).toEqual(kept('gone@example.org'));
  });
});

describe("readReports: a vague X.1.0 code settled by the report's own words about the recipient", () => {
  const vague = (text: string) =>
    dsn(
      'MAILER-DAEMON@relay.example.net',
      `Your message to gone@example.org was not delivered: ${text}`,
      'Final-Recipient: rfc822; gone@example.org\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: smtp; 550 5.1.0 Address rejected',
    );

  it('reads it as hard when the report says the address was not found', async () => {
    expect(await vague('the address could not be found.')).toEqual(hard('gone@example.org'));
  });

  it('keeps the address when the report hedges, or says something else', async () => {
    expect(await vague('the address could not be found, or is unable to receive mail.')).toEqual(
      kept('gone@example.org'),
    );
    expect(await vague('the receiving server refused it.')).toEqual(kept('gone@example.org'));
  });
});

describe('readReports: RFC 3463 codes across families', () => {
  const coded = (status: string, reply: string) =>
    dsn(
      'MAILER-DAEMON@relay.example.net',
      'Delivery failed.',
      `Final-Recipient: rfc822; gone@example.org\nAction: failed\nStatus: ${status}\nDiagnostic-Code: smtp; ${reply}`,
    );

  it.each<[string, string]>([
    ['5.1.1', '550 5.1.1 Recipient rejected'],
    ['5.1.2', '550 5.1.2 Bad destination system address'],
    ['5.1.3', '553 5.1.3 Bad destination mailbox address syntax'],
    ['5.1.6', '551 5.1.6 Destination mailbox has moved'],
    ['5.1.10', '556 5.1.10 Recipient address has null MX'],
  ])('reads %s as hard', async (status, reply) => {
    expect(await coded(status, reply)).toEqual(hard('gone@example.org'));
  });

  it.each<[string, string]>([
    ['5.2.2', '552 5.2.2 Mailbox full'],
    ['5.7.1', '550 5.7.1 Recipient rejected by policy'],
    ['5.3.4', '552 5.3.4 Message too big for system'],
    // RFC 7505: X.7.27 is the SENDER's domain publishing a null MX, not the recipient's.
    ['5.7.27', '550 5.7.27 Host does not accept mail'],
    ['5.2.1', '550 5.2.1 Mailbox disabled, not accepting messages'],
  ])('keeps the address on %s', async (status, reply) => {
    expect(await coded(status, reply)).toEqual(kept('gone@example.org'));
  });
});

describe('readReports: a diagnostic at the longest the reader keeps, and one past', () => {
  /** A Diagnostic-Code of exactly `length` characters whose address words come last, folded as a server folds it. */
  const diagnosticOf = (length: number) => {
    const words = '550 5.1.1 <gone@example.org>: User unknown';
    const padding = Array.from({ length: length - words.length }, (_, index) => (index % 8 === 7 ? ' ' : 'x')).join('');
    return `${padding.trimStart().padStart(length - words.length, 'x')}${words}`.slice(-length);
  };
  const read = async (diagnostic: string) =>
    readReports(
      Buffer.from(
        'From: MAILER-DAEMON@relay.example.net\r\nTo: sender@mailroom.example\r\nSubject: failed\r\nMIME-Version: 1.0\r\n' +
          'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n\r\n' +
          '--b\r\nContent-Type: text/plain\r\n\r\nDelivery failed.\r\n--b\r\nContent-Type: message/delivery-status\r\n\r\n' +
          'Reporting-MTA: dns; relay.example.net\r\n\r\nFinal-Recipient: rfc822; gone@example.org\r\nAction: failed\r\n' +
          `Status: 5.1.1\r\nDiagnostic-Code: smtp;${diagnostic.replace(/ /g, '\r\n ')}\r\n--b--\r\n`,
      ),
    );

  it(`keeps a diagnostic of ${MAX_DIAGNOSTIC_LENGTH} characters whole, and reads its last words`, async () => {
    const diagnostic = diagnosticOf(MAX_DIAGNOSTIC_LENGTH);
    expect(diagnostic).toHaveLength(MAX_DIAGNOSTIC_LENGTH);
    const reports = await read(diagnostic);
    expect(summary(reports)).toEqual(hard('gone@example.org'));
    expect(reports[0].diagnostic).toBe(diagnostic);
  });

  it(`cuts a diagnostic of ${MAX_DIAGNOSTIC_LENGTH + 1} characters to ${MAX_DIAGNOSTIC_LENGTH}, the kind read from the whole`, async () => {
    const diagnostic = diagnosticOf(MAX_DIAGNOSTIC_LENGTH + 1);
    const reports = await read(diagnostic);
    expect(summary(reports)).toEqual(hard('gone@example.org'));
    expect(reports[0].diagnostic).toBe(diagnostic.slice(0, MAX_DIAGNOSTIC_LENGTH));
  });
});

describe('readReports: feedback report fields pasted into the text (no message/feedback-report part)', () => {
  const forwarded = (fields: string) =>
    notice(
      'Abuse Desk <abuse@isp.example.net>',
      'Fwd: complaint about message from mailroom.example.com',
      `A user of ours reported this message as spam.\n\n${fields}\n\nThe reported message's headers follow.\n`,
    );

  it('reads them as a complaint about Original-Rcpt-To, with the fields RFC 5965 requires beside Feedback-Type', async () => {
    expect(
      await forwarded(
        'Feedback-Type: abuse\nUser-Agent: ExampleFBL/2.0\nVersion: 1\nOriginal-Rcpt-To: <reader@isp.example.net>',
      ),
    ).toEqual([{ kind: 'complaint', recipient: 'reader@isp.example.net' }]);
    expect(await forwarded('Version: 1\nFeedback-Type: opt-out\nOriginal-Rcpt-To: reader@isp.example.net')).toEqual([
      { kind: 'complaint', recipient: 'reader@isp.example.net' },
    ]);
  });

  it('reads no complaint from a text that only mentions the field, or a feedback type that is none', async () => {
    expect(await forwarded('Please fill in Feedback-Type: abuse in your reports.')).toEqual([
      { kind: 'unrecognized', recipient: undefined },
    ]);
    expect(
      await forwarded('Feedback-Type: not-spam\nUser-Agent: ExampleFBL/2.0\nOriginal-Rcpt-To: reader@isp.example.net'),
    ).toEqual([{ kind: 'other', recipient: 'reader@isp.example.net' }]);
  });
});
