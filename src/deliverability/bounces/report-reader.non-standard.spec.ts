import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeliveryReport } from './delivery-report';
import { readReports } from './report-reader';

const FIXTURES = join(__dirname, '..', '..', '..', 'test', 'fixtures', 'bounces');
// Read as a mail server sends it (CRLF); report-reader.spec.ts shows LF reads the same.
const sut = (name: string): Promise<DeliveryReport[]> =>
  readReports(Buffer.from(readFileSync(join(FIXTURES, name), 'latin1').replace(/\r?\n/g, '\r\n'), 'latin1'));
const summary = (reports: DeliveryReport[]) =>
  reports.map(({ kind, recipient, status }) => ({ kind, recipient, status }));

describe('readReports on bounces without a delivery-status part', () => {
  it('reads each recipient of a qmail bounce by its own paragraph, never the sender or the quoted copy', async () => {
    const reports = await sut('qmail-two-recipients.eml');
    expect(summary(reports)).toEqual([
      { kind: 'bounce', recipient: 'nobody@example.net', status: '5.1.1' },
      { kind: 'soft', recipient: 'stuffed@example.org', status: '5.2.2' },
    ]);
    expect(reports[0].diagnostic).toBe('<nobody@example.net>: Sorry, no mailbox here by that name. (#5.1.1)');
  });

  it('reads a classic Exim failure with the remote server reply', async () => {
    const reports = await sut('exim-failed.eml');
    expect(summary(reports)).toEqual([{ kind: 'bounce', recipient: 'lost@example.org', status: '5.1.1' }]);
    expect(reports[0].diagnostic).toContain('User unknown in virtual mailbox table');
  });

  it('keeps the address when only words say it is bad (Exim "Unrouteable address", no status code)', async () => {
    expect(summary(await sut('exim-unrouteable-no-code.eml'))).toEqual([
      { kind: 'soft', recipient: 'someone@unknown-domain.example', status: undefined },
    ]);
  });

  it('reads an Exim delay warning as a delay, although Exim marks it auto-replied', async () => {
    expect(summary(await sut('exim-delay-warning.eml'))).toEqual([
      { kind: 'delay', recipient: 'waiting@example.org', status: '4.7.1' },
    ]);
  });

  it('reads a delay warning that also says "could not be delivered" as a delay', async () => {
    expect(summary(await sut('postfix-delay-warning-text-only.eml'))).toEqual([
      { kind: 'delay', recipient: 'later@example.org', status: '4.2.1' },
    ]);
  });

  it('reads a give-up on a temporary failure (qmail "I\'m not going to try again", 4.3.0) as soft', async () => {
    expect(summary(await sut('qmail-gave-up.eml'))).toEqual([
      { kind: 'soft', recipient: 'unreachable@example.org', status: '4.3.0' },
    ]);
  });

  it('reads a multipart report whose boundaries were never written from its raw body', async () => {
    expect(summary(await sut('pmdf-missing-boundaries.eml'))).toEqual([
      { kind: 'bounce', recipient: 'ghost@example.org', status: '5.1.1' },
    ]);
  });

  it('reads delivery status fields pasted into the text (a bounce forwarded as text)', async () => {
    expect(summary(await sut('forwarded-dsn-as-text.eml'))).toEqual([
      { kind: 'soft', recipient: 'alias@example.net', status: '4.0.0' },
    ]);
  });

  it('takes only the first address of a text that lists none on lines of their own', async () => {
    const raw = Buffer.from(
      'From: MAILER-DAEMON@mx.example.net\r\nSubject: Undeliverable\r\n\r\nDelivery to dana@example.org failed permanently: 550 5.1.1 ' +
        'user unknown (in reply to RCPT TO command). Write to helpdesk@example.net for help.\r\n',
    );
    expect(summary(await readReports(raw))).toEqual([
      { kind: 'bounce', recipient: 'dana@example.org', status: '5.1.1' },
    ]);
  });

  it('reads a Yahoo policy refusal as soft', async () => {
    expect(summary(await sut('yahoo-policy.eml'))).toEqual([
      { kind: 'soft', recipient: 'reader@yahoo.example', status: '5.7.9' },
    ]);
  });

  it('reads a classic Gmail "failed permanently" bounce', async () => {
    expect(summary(await sut('gmail-classic-failed-permanently.eml'))).toEqual([
      { kind: 'bounce', recipient: 'nobody.here@gmail.example', status: '5.1.1' },
    ]);
  });

  it('reads an Exchange 2003 notice by its "#5.1.1" and its words', async () => {
    const reports = await sut('exchange2003-no-code.eml');
    expect(summary(reports)).toEqual([{ kind: 'bounce', recipient: 'nemo@corp.example.net', status: '5.1.1' }]);
    expect(reports[0].originalMessageId).toBe('<msg-0015@mailroom.example.com>');
  });

  it('reads an OpenSMTPD give-up (no code) as soft and as a give-up, the quoted copy left out', async () => {
    expect(await sut('opensmtpd-expired.eml')).toEqual([
      {
        kind: 'soft',
        gaveUp: true,
        recipient: 'patient@example.org',
        diagnostic: 'patient@example.org: Envelope expired',
      },
    ]);
  });
});

describe('readReports on documented provider formats', () => {
  it('reads SendGrid\'s non-standard "Action: expired" as a failure (it gave up)', async () => {
    const dsn =
      'Content-Type: multipart/report; report-type=delivery-status; boundary="s"\r\n\r\n--s\r\nContent-Type: message/delivery-status\r\n\r\n' +
      'X-SendGrid-QueueID: 1\r\n\r\nFinal-Recipient: rfc822; late@example.org\r\nAction: expired\r\nStatus: \r\nDiagnostic-Code: Connection timed out\r\n--s--\r\n';
    expect(await readReports(Buffer.from(dsn))).toEqual([
      { kind: 'soft', gaveUp: true, recipient: 'late@example.org', diagnostic: 'Connection timed out' },
    ]);
  });

  it('reads an Amazon SES bounce notification, one report per bounced recipient', async () => {
    const reports = await sut('amazon-ses-bounce-notification.eml');
    expect(summary(reports)).toEqual([
      { kind: 'bounce', recipient: 'nobody@example.org', status: '5.1.1' },
      { kind: 'soft', recipient: 'full@example.org', status: '5.2.2' },
    ]);
    expect(reports.map((report) => report.originalMessageId)).toEqual([
      '<msg-0010@mailroom.example.com>',
      '<msg-0010@mailroom.example.com>',
    ]);
  });

  it('reads an Amazon SES complaint inside an SNS envelope', async () => {
    expect(await sut('amazon-ses-complaint-notification.eml')).toEqual([
      {
        kind: 'complaint',
        recipient: 'grumpy@example.org',
        feedbackType: 'abuse',
        diagnostic: 'Amazon SES complaint: abuse',
        originalMessageId: '<msg-0011@mailroom.example.com>',
      },
    ]);
  });

  it('reads a Microsoft JMRP junk report (no feedback-report part) as a complaint', async () => {
    // The returned original as delivered names its envelope sender in Return-Path.
    const withReturnPath = readFileSync(join(FIXTURES, 'microsoft-jmrp.eml'), 'latin1')
      .replace('X-HmXmrOriginalRecipient:', 'Return-Path: <Bounces+AB12@bounce.example.com>\nX-HmXmrOriginalRecipient:')
      .replace(/\r?\n/g, '\r\n');
    expect((await readReports(Buffer.from(withReturnPath, 'latin1')))[0].originalEnvelopeSender).toBe(
      'bounces+ab12@bounce.example.com',
    );
    expect(await sut('microsoft-jmrp.eml')).toEqual([
      {
        kind: 'complaint',
        recipient: 'junked@outlook.example',
        feedbackType: 'abuse',
        diagnostic: 'Microsoft JMRP junk report',
        originalMessageId: '<msg-0012@mailroom.example.com>',
      },
    ]);
  });

  it('reads an auto-reply known only by its subject as other', async () => {
    expect(await sut('icloud-auto-reply.eml')).toEqual([
      {
        kind: 'other',
        recipient: 'traveller@icloud.example',
        diagnostic: 'auto-reply: Auto reply: Weekly digest',
        originalMessageId: '<msg-0013@mailroom.example.com>',
      },
    ]);
  });
});
