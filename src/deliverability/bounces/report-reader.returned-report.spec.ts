import { MAX_HEADER_BYTES } from '../../platform/mail/header-fields';
import { hard, kept, read } from '../../../test/support/report-samples';

/*
 * A content filter in front of a mail server (a gateway) that says only that delivery failed and
 * returns, as the original message, the mail server's own bounce: the report inside says why.
 */
describe('readReports of a gateway notice whose returned message is a bounce', () => {
  const gateway = (reason: string, returned: string) =>
    read(
      'From: postmaster@gateway.example.jp\nTo: sender@mailroom.example\nSubject: Mail could not be delivered\n' +
        'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="gw"',
      `--gw\nContent-Type: text/plain\n\n****** Message from the mail gateway ******\n\nThe following mail could not be delivered.\n\n${reason}\n\n` +
        `--gw\nContent-Type: message/rfc822\n\n${returned}\n--gw--\n`,
    );
  const innerDsn = (recipient: string, status: string, diagnostic: string) =>
    'From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.jp>\nTo: sender@mailroom.example\nSubject: Returned mail: see transcript for details\n' +
    'MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary="in"\n\n' +
    `--in\nContent-Type: text/plain\n\n   ----- The following addresses had permanent fatal errors -----\n${recipient}\n\n` +
    `--in\nContent-Type: message/delivery-status\n\nReporting-MTA: dns; mx.example.jp\n\nFinal-Recipient: rfc822; ${recipient}\n` +
    `Action: failed\nStatus: ${status}\nDiagnostic-Code: smtp; ${diagnostic}\n--in--\n`;
  const innerTranscript =
    'From: sender@mailroom.example\nTo: ghost@example.jp\nSubject: Hello\n\n' +
    '----- The following addresses had permanent fatal errors -----\n<ghost@example.jp>\n\n' +
    '----- Transcript of session follows -----\n... while talking to mx.example.jp.:\n>>> RCPT To:<ghost@example.jp>\n' +
    '<<< 550 5.1.1 <ghost@example.jp>... User unknown\n';

  it('reads the delivery status report it returns, for the recipient that report names', async () => {
    expect(
      await gateway('Reason: delivery failed.', innerDsn('ghost@example.jp', '5.1.1', '550 5.1.1 User unknown')),
    ).toEqual(hard('ghost@example.jp'));
  });

  it('reads the bounce text it returns for the recipient the gateway names', async () => {
    expect(await gateway('Reason: Unable to deliver message to <ghost@example.jp>.', innerTranscript)).toEqual(
      hard('ghost@example.jp'),
    );
  });

  it('keeps the address when the returned report says the failure is not about it', async () => {
    expect(
      await gateway('Reason: delivery failed.', innerDsn('ghost@example.jp', '5.2.2', '552 5.2.2 Mailbox full')),
    ).toEqual(kept('ghost@example.jp'));
  });

  it('keeps the address when the returned report is about another recipient than the one the gateway names', async () => {
    expect(
      await gateway(
        'Reason: Unable to deliver message to <ghost@example.jp>.',
        innerDsn('other@example.jp', '5.1.1', '550 5.1.1 User unknown'),
      ),
    ).toEqual(kept('ghost@example.jp'));
  });

  it('keeps the address when the gateway gives a reason of its own, whatever the returned message says', async () => {
    expect(
      await gateway(
        'Reason: <ghost@example.jp>: 550 5.7.1 Message rejected as spam.',
        innerDsn('ghost@example.jp', '5.1.1', '550 5.1.1 User unknown'),
      ),
    ).toEqual(kept('ghost@example.jp'));
  });

  it('keeps the address when the returned message is the ordinary mail sent', async () => {
    expect(
      await gateway(
        'Reason: Unable to deliver message to <ghost@example.jp>.',
        'From: sender@mailroom.example\nTo: ghost@example.jp\nSubject: Your invoice\n\nHello, your invoice is attached.\n',
      ),
    ).toEqual(kept('ghost@example.jp'));
    expect(
      await gateway(
        'Reason: Unable to deliver message to <ghost@example.jp>.',
        'From: sender@mailroom.example\nTo: ghost@example.jp\nSubject: Your order is delayed\n\n' +
          'Your message delayed: our courier will keep trying until Friday (reference 4.2.0).\n',
      ),
    ).toEqual(kept('ghost@example.jp'));
  });

  it('opens one level only: a bounce returned inside the returned notice is not read', async () => {
    const nested = innerDsn('ghost@example.jp', '5.1.1', '550 5.1.1 User unknown');
    const innerGateway =
      'From: postmaster@filter.example.jp\nTo: sender@mailroom.example\nSubject: Mail could not be delivered\n' +
      'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="gw2"\n\n' +
      `--gw2\nContent-Type: text/plain\n\nThe following mail could not be delivered.\n\n--gw2\nContent-Type: message/rfc822\n\n${nested}\n--gw2--\n`;
    expect(await gateway('Reason: Unable to deliver message to <ghost@example.jp>.', innerGateway)).toEqual(
      kept('ghost@example.jp'),
    );
  });

  it("keeps the gateway's own reading when the returned message's header block is past mailparser's limit", async () => {
    const longHeader = `X-Filler: ${'a'.repeat(MAX_HEADER_BYTES + 1)}\n`;
    expect(
      await gateway(
        'Reason: Unable to deliver message to <ghost@example.jp>.',
        longHeader + innerDsn('ghost@example.jp', '5.1.1', '550 5.1.1 User unknown'),
      ),
    ).toEqual(kept('ghost@example.jp'));
  });
});
