import { hard, kept, notice } from '../../../test/support/report-samples';

/*
 * Bounces in the style of mail server software, written for this project. They pinned the per-server
 * rules (reports/servers/), which issue 33 item 15 deleted: the reader now reads wording families
 * and RFC 3463 codes, whoever writes them (reports/classify.ts). The cases only a deleted rule read
 * are `it.failing`, each saying why, so that they turn red if the general rules ever read them.
 */
describe('readReports with the words of identified mail server software', () => {
  describe('Exchange 2003 (X-Mailer: Internet Mail Service)', () => {
    const exchange = (reason: string, code: string, mailer = 'Internet Mail Service (5.5.2653.19)') =>
      notice(
        'System Administrator <postmaster@corp.example>',
        'Undeliverable: Quarterly figures',
        `Your message\n\n  To:      nobody@corp.example\n  Subject: Quarterly figures\n\ndid not reach the following recipient(s):\n\n` +
          `nobody@corp.example on Mon, 2 Mar 2026 10:00:00 +0000\n    ${reason}\n    MSEXCH:IMS:CORP:SITE:MAIL01 0 (${code})\n`,
        `X-Mailer: ${mailer}\n`,
      );

    // Fails on purpose: Its second half: Exchange's internal code 000C05A6 was one server's rule (deleted, issue 33 item 15); the directory wording is read.
    it.failing(
      'reads "The recipient name is not recognized", and its code 000C05A6 (Unknown Recipient), as hard',
      async () => {
        expect(await exchange('The recipient name is not recognized', '000B09AA')).toEqual(hard('nobody@corp.example'));
        expect(await exchange('Unable to deliver to this recipient', '000C05A6')).toEqual(hard('nobody@corp.example'));
      },
    );

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
      // docs/delivery-and-deliverability.md: suppressed "only when the failure is about the address itself — it or its domain does not exist", whoever reports it.
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

    it('reads "not listed in Domino Directory" as hard from a notice that is not Domino\'s too', async () => {
      expect(
        await notice(
          'Postmaster@relay.example.net',
          'Undelivered Mail Returned to Sender',
          'Your message was not delivered to:\n\n  jane@corp.example\n\nbecause:\n\n  User Jane Doe (jane@corp.example) not listed in Domino Directory\n',
        ),
      ).toEqual(hard('jane@corp.example'));
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

    // Fails on purpose: IMail's own rule (deleted): "Unknown user:" with no SMTP stage is also what filters say (issue 33 item 15).
    it.failing('reads "Unknown user:" and "Invalid final delivery userid:" as hard', async () => {
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
      // docs/delivery-and-deliverability.md: suppressed "only when the failure is about the address itself — it or its domain does not exist", whoever reports it.
      expect(await smail('someone@nohost.example ... unknown host')).toEqual(hard('someone@nohost.example'));
      expect(await smail('someone@nohost.example ... mailbox full')).toEqual(kept('someone@nohost.example'));
    });

    it('reads "... unknown host" as hard from a notice without its "Failed addresses follow:" too', async () => {
      expect(
        await notice(
          '<MAILER-DAEMON@mx.example.net>',
          'mail failed, returning to sender',
          'Delivery failed for the following address:\n someone@nohost.example ... unknown host\n',
        ),
      ).toEqual(hard('someone@nohost.example'));
    });
  });
});
