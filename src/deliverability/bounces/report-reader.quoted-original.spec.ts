import { dsn, kept } from '../../../test/support/report-samples';

/*
 * An RFC 3464 report whose human-readable part quotes the returned message inline (old Gmail
 * "----- Original message -----", Sendmail "----- Original message follows -----"): the quoted
 * text is the sender's mail, not the reporting server's words, so neither a server's phrase nor
 * a note of the SMTP stage found there may turn a kept address into a hard bounce. The
 * plain-text reader already stops at the same markers.
 */
describe('readReports of a delivery status report quoting the original inline', () => {
  const quoting = (inner: string) =>
    `\n\n----- Original message -----\n\nFrom: billing@mailroom.example\nSubject: Fwd: your ticket\n\n${inner}\n`;
  const group = (diagnostic: string) =>
    `Final-Recipient: rfc822; gone@example.de\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: smtp; ${diagnostic}`;

  it("keeps the address when Google's sure sentence is only in the quoted original", async () => {
    expect(
      await dsn(
        'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
        "** Address not found **\n\nYour message wasn't delivered to gone@example.de because the address couldn't be found, or is unable to receive mail.\n\nThe response was:\n550 : User unknown" +
          quoting("We got this: the address couldn't be found. Check for typos or unnecessary spaces and try again."),
        group('550 : User unknown'),
      ),
    ).toEqual(kept('gone@example.de'));
  });

  it("keeps the address when Exim's words for a domain without mail hosts are only in the quoted original", async () => {
    expect(
      await dsn(
        'Mail Delivery System <Mailer-Daemon@mx.example.net>',
        'This message was created automatically by mail delivery software.\n\nA message that you sent could not be delivered.\n\n  gone@example.de\n    550 rejected' +
          quoting('Our old host said: all relevant MX records point to non-existent hosts'),
        group('550 rejected'),
      ),
    ).toEqual(kept('gone@example.de'));
  });

  it('keeps the address when "in reply to RCPT TO command" is only in the quoted original', async () => {
    expect(
      await dsn(
        'MAILER-DAEMON@relay.example.net',
        'Delivery to the following recipient failed permanently:\n\n  gone@example.de' +
          quoting('host mx.example.org said: 550 No such user here (in reply to RCPT TO command)'),
        group('550 No such user here'),
      ),
    ).toEqual(kept('gone@example.de'));
  });
});
