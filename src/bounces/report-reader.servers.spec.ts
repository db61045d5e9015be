import { DeliveryReport } from './delivery-report';
import { readReports } from './report-reader';

/*
 * The per-server rules (reports/servers/ and the RCPT-stage wordings in classify.ts), each pinned
 * by a short bounce written for this project in the style of that server, with the same server's
 * words for a failure that is not about the address beside it, and the same words from a server
 * the reader cannot identify.
 */
const summary = (reports: DeliveryReport[]) =>
  reports.map(({ kind, recipient, gaveUp }) => ({ kind, recipient, ...(gaveUp && { gaveUp }) }));
const read = async (headers: string, body: string) =>
  summary(await readReports(Buffer.from(`${headers.trim()}\r\n\r\n${body}`.replace(/\r?\n/g, '\r\n'), 'latin1')));

/** A plain-text notice. */
const notice = (from: string, subject: string, body: string, extra = '') =>
  read(`From: ${from}\nTo: sender@mailroom.example\nSubject: ${subject}\n${extra}`, body);

/** An RFC 3464 report with a human-readable part and one recipient group. */
const dsn = (from: string, text: string, group: string, reportingMta = 'dns; mx.example.net') =>
  read(
    `From: ${from}\nTo: sender@mailroom.example\nSubject: Delivery Status Notification (Failure)\nMIME-Version: 1.0\n` +
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b"',
    `--b\nContent-Type: text/plain\n\n${text}\n--b\nContent-Type: message/delivery-status\n\n` +
      `Reporting-MTA: ${reportingMta}\n\n${group.trim()}\n--b--\n`,
  );

const hard = (recipient?: string) => [{ kind: 'bounce', recipient }];
const kept = (recipient?: string) => [{ kind: 'soft', recipient }];

describe('readReports with the words of identified servers', () => {
  describe('Google (mailer-daemon@googlemail.com)', () => {
    const google = (sentence: string, diagnostic: string) =>
      dsn(
        'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
        `** Address not found **\n\nYour message wasn't delivered to gone@example.de because ${sentence}\n\nThe response was:\n${diagnostic}`,
        `Final-Recipient: rfc822; gone@example.de\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: smtp; ${diagnostic}`,
      );

    it('reads its sure "address couldn\'t be found. Check for typos" as hard, beside a catch-all 5.0.0', async () => {
      expect(
        await google(
          "the address couldn't be found. Check for typos or unnecessary spaces and try again.",
          '550 #5.1.0 Address rejected.',
        ),
      ).toEqual(hard('gone@example.de'));
    });

    it('keeps the address on its unsure "…or is unable to receive mail" and on a policy reply', async () => {
      expect(
        await google("the address couldn't be found, or is unable to receive mail.", '550 : User unknown'),
      ).toEqual(kept('gone@example.de'));
      expect(
        await google(
          "the address couldn't be found. Check for typos or unnecessary spaces and try again.",
          '550 5.7.1 Message rejected by policy',
        ),
      ).toEqual(kept('gone@example.de'));
    });

    it("keeps the address when another server writes Google's sentence", async () => {
      expect(
        await dsn(
          'MAILER-DAEMON@relay.example.net',
          "Your message wasn't delivered because the address couldn't be found. Check for typos.",
          'Final-Recipient: rfc822; gone@example.de\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: smtp; 550 Rejected',
        ),
      ).toEqual(kept('gone@example.de'));
    });
  });

  describe('Yahoo (its reports, or a reply naming one of its hosts)', () => {
    const relayed = (reply: string) =>
      notice(
        'Mail Delivery Subsystem <MAILER-DAEMON@relay.example.jp>',
        'Returned mail: see transcript for details',
        `----- The following addresses had permanent fatal errors -----\n<nobody@yahoo.com>\n\n` +
          `----- Transcript of session follows -----\n... while talking to mta7.mail.gq1.yahoo.com.:\n>>> DATA\n<<< ${reply}\n`,
      );

    it('reads its "This user doesn\'t have a yahoo.com account" after DATA as hard', async () => {
      expect(
        await relayed("554 delivery error: dd This user doesn't have a yahoo.com account (nobody@yahoo.com) [0]"),
      ).toEqual(hard('nobody@yahoo.com'));
    });

    it('reads "Requested mail action aborted, mailbox not found" from a yahoodns.net host after DATA as hard', async () => {
      const postfix = (host: string) =>
        notice(
          'MAILER-DAEMON@relay.example.org (Mail Delivery System)',
          'Undelivered Mail Returned to Sender',
          `This is the mail system at host relay.example.org.\n\nYour message could not be delivered to one or more recipients.\n\n` +
            `<nobody@yahoo.com>: host ${host}[192.0.2.7] said: 552 1 Requested mail action aborted, mailbox not found (in reply to end of DATA command)\n`,
        );
      expect(await postfix('mta6.am0.yahoodns.net')).toEqual(hard('nobody@yahoo.com'));
      expect(await postfix('mx.example.net')).toEqual(kept('nobody@yahoo.com'));
    });

    it('keeps the address on its full-mailbox reply', async () => {
      expect(
        await relayed(
          '554 delivery error: dd Sorry your message to nobody@yahoo.com cannot be delivered. This mailbox is full',
        ),
      ).toEqual(kept('nobody@yahoo.com'));
    });

    it('reads "No mx record found for domain" in its own notice as hard', async () => {
      const body = (line: string) =>
        `Sorry, we were unable to deliver your message to the following address.\n\n<someone@nomx.example>:\n${line}\n\n--- Below this line is a copy of the message.\n`;
      expect(
        await notice('MAILER-DAEMON@yahoo.com', 'Failure Notice', body('No mx record found for domain=nomx.example')),
      ).toEqual(hard('someone@nomx.example'));
      expect(
        await notice(
          'MAILER-DAEMON@mail.example.org',
          'Failure Notice',
          body('No mx record found for domain=nomx.example'),
        ),
      ).toEqual(kept('someone@nomx.example'));
    });
  });

  describe('KDDI au (a report about an ezweb.ne.jp or au.com address)', () => {
    const relayed = (reply: string, domain = 'ezweb.ne.jp') =>
      notice(
        'MAILER-DAEMON@relay.example.jp (Mail Delivery System)',
        'Undelivered Mail Returned to Sender',
        `This is the mail system at host relay.example.jp.\n\nYour message could not be delivered to one or more recipients.\n\n` +
          `<taro@${domain}>: ${reply.replace('ADDRESS', `taro@${domain}`)}\n`,
      );

    it('reads "550 <address>: User unknown" as hard', async () => {
      expect(await relayed('550 <ADDRESS>: User unknown')).toEqual(hard('taro@ezweb.ne.jp'));
      expect(await relayed('550: <ADDRESS>: User unknown', 'au.com')).toEqual(hard('taro@au.com'));
    });

    it('keeps the address on "550 : User unknown" (the user\'s filter), and on the same reply for another domain', async () => {
      expect(await relayed('550 : User unknown')).toEqual(kept('taro@ezweb.ne.jp'));
      expect(await relayed('550 <ADDRESS>: User unknown', 'example.jp')).toEqual(kept('taro@example.jp'));
    });

    it('reads its "not delivered within 0 days and 1 hours" notice as a give-up', async () => {
      expect(
        await notice(
          'Postmaster@ezweb.ne.jp',
          'Mail System Error - Returned Mail',
          'Your message was not delivered within 0 days and 1 hours.\nRemote host is not responding.\n\n' +
            'The following recipients did not receive this message:\n\n<taro@ezweb.ne.jp>\n',
        ),
      ).toEqual([{ kind: 'soft', recipient: 'taro@ezweb.ne.jp', gaveUp: true }]);
    });
  });

  describe('MessageLabs (MAILER-DAEMON@messagelabs.com with X-Msg-Ref)', () => {
    const messageLabs = (diagnostic: string, extra = 'X-Msg-Ref: server-1.tower-2.messagelabs.com!1!2!1\n') =>
      read(
        'From: Mail Delivery System <MAILER-DAEMON@messagelabs.com>\nTo: sender@mailroom.example\nSubject: Mail Delivery Failure\n' +
          `${extra}MIME-Version: 1.0\nContent-Type: multipart/report; report-type=delivery-status; boundary="b"`,
        `--b\nContent-Type: text/plain\n\nThis is the mail delivery agent at messagelabs.com.\n\n--b\nContent-Type: message/delivery-status\n\n` +
          `Reporting-MTA: dns; server-1.tower-2.messagelabs.com\n\nFinal-Recipient: rfc822; nobody@customer.example\nAction: failed\n` +
          `Status: 5.0.0\nDiagnostic-Code: smtp; ${diagnostic}\n--b--\n`,
      );

    it('reads its "542 <address> Rejected" as hard', async () => {
      expect(await messageLabs('542 nobody@customer.example Rejected')).toEqual(hard('nobody@customer.example'));
    });

    it('keeps the address on its authentication refusal, and on a 542 without its X-Msg-Ref', async () => {
      expect(await messageLabs('550-Please turn on SMTP Authentication in your mail client.')).toEqual(
        kept('nobody@customer.example'),
      );
      expect(await messageLabs('542 nobody@customer.example Rejected', '')).toEqual(kept('nobody@customer.example'));
    });
  });

  describe('Hotmail (postmaster at a hotmail host)', () => {
    const hotmail = (from: string, diagnostic: string) =>
      dsn(
        from,
        'Delivery to the following recipients failed.\n\n       someone@nowhere.example',
        `Final-Recipient: rfc822;someone@nowhere.example\nAction: failed\nStatus: 5.5.0\nDiagnostic-Code: smtp;${diagnostic}`,
      );
    const unreachable =
      '554 The mail could not be delivered to the recipient because the domain is not reachable. Please check the domain and try again';

    it('reads "the domain is not reachable" as hard', async () => {
      expect(await hotmail('postmaster@mail.hotmail.com', unreachable)).toEqual(hard('someone@nowhere.example'));
    });

    it('keeps the address on its quota reply, and on the same words from an unknown server', async () => {
      expect(await hotmail('postmaster@mail.hotmail.com', '552 The recipient mailbox is full')).toEqual(
        kept('someone@nowhere.example'),
      );
      expect(await hotmail('postmaster@relay.example.net', unreachable)).toEqual(kept('someone@nowhere.example'));
    });
  });

  describe('Exchange 2003 (X-Mailer: Internet Mail Service)', () => {
    const exchange = (reason: string, code: string, mailer = 'Internet Mail Service (5.5.2653.19)') =>
      notice(
        'System Administrator <postmaster@corp.example>',
        'Undeliverable: Quarterly figures',
        `Your message\n\n  To:      nobody@corp.example\n  Subject: Quarterly figures\n\ndid not reach the following recipient(s):\n\n` +
          `nobody@corp.example on Mon, 2 Mar 2026 10:00:00 +0000\n    ${reason}\n    MSEXCH:IMS:CORP:SITE:MAIL01 0 (${code})\n`,
        `X-Mailer: ${mailer}\n`,
      );

    it('reads "The recipient name is not recognized", and its code 000C05A6 (Unknown Recipient), as hard', async () => {
      expect(await exchange('The recipient name is not recognized', '000B09AA')).toEqual(hard('nobody@corp.example'));
      expect(await exchange('Unable to deliver to this recipient', '000C05A6')).toEqual(hard('nobody@corp.example'));
    });

    it('keeps the address on its full-mailbox and relay wordings, and on its phrase from another mailer', async () => {
      expect(
        await exchange("The message reached the recipient's e-mail system, but the mailbox is full", '000B09AA'),
      ).toEqual(kept('nobody@corp.example'));
      expect(await exchange('Unable to relay for nobody@corp.example', '000B09AA')).toEqual(
        kept('nobody@corp.example'),
      );
    });
  });

  describe('Lotus Notes and Domino', () => {
    it('reads "not listed in Domino Directory" as hard (subject DELIVERY FAILURE:)', async () => {
      expect(
        await notice(
          'Postmaster@corp.example',
          'DELIVERY FAILURE: User Jane Doe (jane@corp.example) not listed in Domino Directory',
          'Your message\n\n  Subject: Hello\n\nwas not delivered to:\n\n  jane@corp.example\n\nbecause:\n\n  User Jane Doe (jane@corp.example) not listed in Domino Directory\n',
        ),
      ).toEqual(hard('jane@corp.example'));
    });

    it('reads Notes "not listed in public Name & Address Book" (and in French) as hard, a full mailbox as soft', async () => {
      const notes = (reason: string) =>
        notice(
          'POSTMASTER@gw.corp.example',
          'Undeliverable message',
          `------- Failure Reasons  --------\n\n${reason}\njane@corp.example\n\n------- Returned Message --------\n`,
          'MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n',
        );
      expect(await notes('User not listed in public Name & Address Book')).toEqual(hard('jane@corp.example'));
      expect(await notes('Unable to deliver: the recipient mailbox is full')).toEqual(kept('jane@corp.example'));
      expect(await notes("Utilisateur non répertorié dans l'annuaire Domino")).toEqual(hard('jane@corp.example'));
      expect(await notes('Several matches found in Domino Directory')).toEqual(kept('jane@corp.example'));
    });
  });

  describe('IMail (X-Mailer: <SMTP32 …>)', () => {
    const imail = (line: string, mailer = '<SMTP32 v8.22>') =>
      notice(
        '"Postmaster" <postmaster@isp.example>',
        'Undeliverable Mail',
        `${line}\n\nOriginal message follows.\n`,
        `X-Mailer: ${mailer}\n`,
      );

    it('reads "Unknown user:" and "Invalid final delivery userid:" as hard', async () => {
      expect(await imail('Unknown user: ghost@isp.example')).toEqual(hard('ghost@isp.example'));
      expect(await imail('Invalid final delivery userid: ghost@isp.example')).toEqual(hard('ghost@isp.example'));
      expect(await imail('Unknown host: isp.example')).toEqual(hard());
    });

    it('keeps the address on a full mailbox, and on "Unknown user:" from another mailer', async () => {
      expect(await imail('User mailbox exceeds allowed size: ghost@isp.example')).toEqual(kept('ghost@isp.example'));
      expect(await imail('Unknown user: ghost@isp.example', 'SomeOtherMailer 1.0')).toEqual(kept('ghost@isp.example'));
    });
  });

  describe('OpenSMTPD', () => {
    const smtpd = (line: string) =>
      notice(
        'Mailer Daemon <MAILER-DAEMON@mx.example.jp>',
        'Delivery status notification: error',
        '    Hi!\n\n    This is the MAILER-DAEMON, please DO NOT REPLY to this e-mail.\n\n' +
          '    An error has occurred while attempting to deliver a message for\n    the following list of recipients:\n\n' +
          `${line}\n\n    Below is a copy of the original message:\n`,
      );

    it('reads its "Domain does not exist" as hard', async () => {
      expect(await smtpd('someone@no-such.example: Domain does not exist')).toEqual(hard('someone@no-such.example'));
      expect(await smtpd('someone@no-such.example: Invalid domain name')).toEqual(hard('someone@no-such.example'));
      expect(await smtpd('someone@no-such.example: No MX found for domain')).toEqual(hard('someone@no-such.example'));
    });

    it('reads its "Envelope expired" as a give-up and a quota as soft', async () => {
      expect(await smtpd('someone@slow.example: Envelope expired')).toEqual([
        { kind: 'soft', recipient: 'someone@slow.example', gaveUp: true },
      ]);
      expect(await smtpd('someone@slow.example: 552 Mailbox quota exceeded')).toEqual(kept('someone@slow.example'));
      expect(await smtpd('someone@slow.example: Destination seem to reject all mails')).toEqual(
        kept('someone@slow.example'),
      );
    });
  });

  describe('Exim (its notice opening)', () => {
    const exim = (line: string) =>
      notice(
        'Mail Delivery System <Mailer-Daemon@mx.example.ru>',
        'Mail delivery failed: returning message to sender',
        'This message was created automatically by mail delivery software.\n\nA message that you sent could not be delivered to one or more of its\n' +
          `recipients. This is a permanent error. The following address(es) failed:\n\n  someone@nullmx.example\n    ${line}\n`,
      );

    it('reads "an MX or SRV record indicated no SMTP service" (a null MX) as hard', async () => {
      expect(await exim('an MX or SRV record indicated no SMTP service')).toEqual(hard('someone@nullmx.example'));
      expect(await exim('all relevant MX records point to non-existent hosts')).toEqual(hard('someone@nullmx.example'));
      expect(await exim('all host address lookups failed permanently')).toEqual(hard('someone@nullmx.example'));
    });

    it('keeps the address on its retry timeout and on "Unrouteable address" (a router can say it of a real domain)', async () => {
      expect(await exim('retry timeout exceeded')).toEqual(kept('someone@nullmx.example'));
      expect(await exim('Unrouteable address')).toEqual(kept('someone@nullmx.example'));
    });
  });

  describe('Smail ("Failed addresses follow:")', () => {
    const smail = (line: string) =>
      notice(
        '<MAILER-DAEMON@mx.example.net>',
        'mail failed, returning to sender',
        '|------------------------- Message log follows: -------------------------|\n no valid recipients were found for this message\n' +
          `|------------------------- Failed addresses follow: ---------------------|\n ${line}\n` +
          '|------------------------- Message text follows: ------------------------|\n',
      );

    it('reads "... unknown host" as hard and a full mailbox as soft', async () => {
      expect(await smail('someone@nohost.example ... unknown host')).toEqual(hard('someone@nohost.example'));
      expect(await smail('someone@nohost.example ... mailbox full')).toEqual(kept('someone@nohost.example'));
    });
  });

  describe('Verizon MMS gateway (vzwpix.com)', () => {
    const mms = (from: string) =>
      notice(
        `MMSC NDR Administrator <${from}>`,
        'Undeliverable Message',
        'Message could not be delivered to mobile.\nError: No valid recipients for this MM\n\nOriginal Message:\nTo: 5550100@vzwpix.com\n',
      );

    // The notice names the number only in its quoted header, so the report names no recipient.
    it('reads "No valid recipients for this MM" as hard from the gateway, soft from anyone else', async () => {
      expect(await mms('sysadmin@m01.vzwpix.com')).toEqual(hard());
      expect(await mms('sysadmin@mms.example.net')).toEqual(kept());
    });
  });
});

describe("readReports with words given at RCPT TO in other servers' wordings", () => {
  it('reads qmail "most progress was RCPT TO response" with its catch-all #5.5.0 and "Unknown user" as hard', async () => {
    const qmail = (reply: string) =>
      notice(
        'MAILER-DAEMON@mx.example.net',
        'failure notice',
        "Hi. This is the qmail-send program at mx.example.net.\nI'm afraid I wasn't able to deliver your message to the following addresses.\n" +
          `This is a permanent error; I've given up. Sorry it didn't work out.\n\n<ghost@example.org>:\n` +
          `Sorry, no SMTP connection got far enough; most progress was RCPT TO response; remote host 192.0.2.1 said: ${reply} (#5.5.0)\n`,
      );
    expect(await qmail('550 Unknown user ghost@example.org')).toEqual(hard('ghost@example.org'));
    expect(await qmail('550 Mailbox full')).toEqual(kept('ghost@example.org'));
  });

  it('reads a Sendmail-style "5.2.1 … User Unknown" answering RCPT as hard, a 5.2.1 "disabled" as soft', async () => {
    const postfix = (reply: string) =>
      notice(
        'MAILER-DAEMON@relay.example.jp (Mail Delivery System)',
        'Undelivered Mail Returned to Sender',
        `This is the mail system at host relay.example.jp.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n` +
          `<ghost@example.jp>: host mx.example.jp[192.0.2.2] said: ${reply} (in reply to RCPT TO command)\n`,
      );
    expect(await postfix('550 5.2.1 <ghost@example.jp>... User Unknown')).toEqual(hard('ghost@example.jp'));
    expect(await postfix('550 5.2.1 <ghost@example.jp>... Mailbox disabled')).toEqual(kept('ghost@example.jp'));
  });

  it('keeps the address of a 5.2.1 "User unknown" when nothing says it answered RCPT', async () => {
    expect(
      await notice(
        'MAILER-DAEMON@relay.example.jp',
        'Undelivered Mail Returned to Sender',
        'Delivery failed.\n\n<ghost@example.jp>: 550 5.2.1 <ghost@example.jp>... User Unknown\n',
      ),
    ).toEqual(kept('ghost@example.jp'));
  });

  it('reads Oracle Messaging Server "Remote SMTP server has rejected address" with a 5.0.0 and "User unknown" as hard', async () => {
    const oracle = (diagnostic: string) =>
      dsn(
        'postmaster@mail.example.com',
        'Your message cannot be delivered to the following recipients:\n\n  Recipient address: ghost@example.jp\n  Reason: Remote SMTP server has rejected address\n',
        `Final-recipient: rfc822;ghost@example.jp\nAction: failed\nStatus: 5.0.0 (Remote SMTP server has rejected address)\nDiagnostic-code: smtp;${diagnostic}`,
      );
    expect(await oracle('550 <ghost@example.jp>: User unknown')).toEqual(hard('ghost@example.jp'));
    expect(await oracle('550 5.7.1 550 User Unknown: ghost@example.jp')).toEqual(kept('ghost@example.jp'));
  });

  it('reads a gateway\'s "SMTP:RCPT host … 553 5.3.0 … No such user here" as hard', async () => {
    expect(
      await notice(
        'Mail Delivery System <Mail.Delivery.System@mx.example.com>',
        'Delivery status notification',
        'Delivery to the following recipients failed permanently:\n\n   * ghost@example.com\n\nTechnical details:\n' +
          'SMTP:RCPT host 192.0.2.8: 553 5.3.0 <ghost@example.com>... No such user here\n',
      ),
    ).toEqual(hard('ghost@example.com'));
  });

  it('reads a relay that retried "450 4.1.1 User unknown" until it gave up as hard, a retried 4.4.1 timeout as a give-up', async () => {
    const gaveUp = (status: string, diagnostic: string) =>
      dsn(
        'MAILER-DAEMON@relay.example.org (Mail Delivery System)',
        "I'm sorry to have to inform you that your message could not be delivered to one or more recipients.",
        `Final-Recipient: rfc822; ghost@example.org\nAction: failed\nStatus: ${status}\nDiagnostic-Code: smtp; ${diagnostic}`,
      );
    expect(await gaveUp('4.1.1', '450 4.1.1 <ghost@example.org>: Recipient address rejected: User unknown')).toEqual(
      hard('ghost@example.org'),
    );
    expect(await gaveUp('4.4.1', 'connect to mx.example.org[192.0.2.9]:25: Connection timed out')).toEqual([
      { kind: 'soft', recipient: 'ghost@example.org', gaveUp: true },
    ]);
  });
});
