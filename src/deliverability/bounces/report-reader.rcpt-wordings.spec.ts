import { dsn, hard, kept, notice } from '../../../test/support/report-samples';

/*
 * The RCPT-stage wordings in classify.ts: words that say the address does not exist count without
 * an address code only when the report shows they answered RCPT TO. Short bounces written for
 * this project in the style of each server.
 */
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

  it('reads a relay that retried "450 4.1.1 User unknown" or a 4.4.1 timeout until it gave up as a give-up (docs/delivery-and-deliverability.md: never suppressed)', async () => {
    const gaveUp = (status: string, diagnostic: string) =>
      dsn(
        'MAILER-DAEMON@relay.example.org (Mail Delivery System)',
        "I'm sorry to have to inform you that your message could not be delivered to one or more recipients.",
        `Final-Recipient: rfc822; ghost@example.org\nAction: failed\nStatus: ${status}\nDiagnostic-Code: smtp; ${diagnostic}`,
      );
    expect(await gaveUp('4.1.1', '450 4.1.1 <ghost@example.org>: Recipient address rejected: User unknown')).toEqual([
      { kind: 'soft', recipient: 'ghost@example.org', gaveUp: true },
    ]);
    expect(await gaveUp('4.4.1', 'connect to mx.example.org[192.0.2.9]:25: Connection timed out')).toEqual([
      { kind: 'soft', recipient: 'ghost@example.org', gaveUp: true },
    ]);
  });

  describe('a DSN whose Diagnostic-Code echoes the Final-Recipient path right after the reply code', () => {
    const relayed = (diagnostic: string, text = 'Your message could not be delivered to one or more recipients.') =>
      dsn(
        'MAILER-DAEMON@relay.example.net',
        text,
        `Final-Recipient: rfc822; ghost@example.jp\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: smtp; ${diagnostic}`,
      );

    it('reads "550 <address>: User unknown" (the reply to RCPT TO, which carries that path) as hard', async () => {
      expect(await relayed('550 <ghost@example.jp>: User unknown')).toEqual(hard('ghost@example.jp'));
      expect(await relayed('550: <Ghost@Example.JP>: User unknown')).toEqual(hard('ghost@example.jp'));
    });

    it('keeps the address when the reply names no path, another path, a bare address or an enhanced code first', async () => {
      expect(await relayed('550 : User unknown')).toEqual(kept('ghost@example.jp'));
      expect(await relayed('550 <other@example.jp>: User unknown')).toEqual(kept('ghost@example.jp'));
      expect(await relayed('550 ghost@example.jp... No such user')).toEqual(kept('ghost@example.jp'));
      expect(await relayed('550 5.0.0 <ghost@example.jp>... User unknown')).toEqual(kept('ghost@example.jp'));
    });

    it('keeps the address when the path is echoed with words that are not about the address, or after DATA', async () => {
      expect(await relayed('550 <ghost@example.jp>: Mailbox full')).toEqual(kept('ghost@example.jp'));
      expect(
        await relayed(
          '550 <ghost@example.jp>: User unknown',
          '<ghost@example.jp>: host mx.example.jp[192.0.2.2] said: 550 <ghost@example.jp>: User unknown (in reply to end of DATA command)',
        ),
      ).toEqual(kept('ghost@example.jp'));
    });

    it('keeps the address of the same reply in a plain-text notice, where no field says whom it is about', async () => {
      expect(
        await notice(
          'MAILER-DAEMON@relay.example.net',
          'Undelivered Mail Returned to Sender',
          'Delivery failed.\n\n<ghost@example.jp>: host mx.example.jp[192.0.2.2] said: 550 <ghost@example.jp>: User unknown\n',
        ),
      ).toEqual(kept('ghost@example.jp'));
    });
  });
});
