// Each user's inbound storage quota (INBOUND_DAILY_QUOTA_BYTES, here its least: 1 MiB a day;
// issue 33, item 11): mail for a user at its quota is answered 452 4.2.2 at RCPT, and at DATA
// when another session filled it after RCPT and every user of the mail is at its quota, storing
// nothing; another user's mail, in the same transaction too, is taken.
import { createTransport } from 'nodemailer';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { RawSmtpClient } from '../../support/raw-smtp-client';
import { mailOfSize } from '../../support/inbound/hostile-mail';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';

const QUOTA = 1024 * 1024;
const MAIL_BYTES = 300_000;

describe('the inbound quota', () => {
  const app = bootInboundApp({ INBOUND_DAILY_QUOTA_BYTES: String(QUOTA) });
  const full = app.mailbox('quota-full');
  const other = app.mailbox('quota-other');
  const filled = app.mailbox('quota-filled');
  const sharing = app.mailbox('quota-sharing');

  const send = (to: string) => sendWithNodemailer(app.port(), to, mailOfSize(MAIL_BYTES), 'cara@example.org');
  const total = async (userId: string) => (await app.list(userId)).total;

  it(
    "refuses mail past the quota with 452 4.2.2 at RCPT and DATA, and takes other users' mail",
    async () => {
      // 0, 300 000, 600 000 bytes before each: under 1 MiB.
      for (let i = 0; i < 3; i++) expect(await send(full.to)).toMatchObject({ accepted: true });

      // A session passes RCPT at 900 000 bytes; another's mail then takes the user to 1 200 000.
      const late = new RawSmtpClient(app.port());
      await late.greeted();
      late.write(`EHLO late.example.net\r\nMAIL FROM:<cara@example.org>\r\nRCPT TO:<${full.to}>\r\nDATA\r\n`);
      await late.waitFor((c) => c.replies().some((line) => line.startsWith('354')), '354');
      expect(await send(full.to)).toMatchObject({ accepted: true });
      expect(await total(full.userId)).toBe(4);
      late.write(`${mailOfSize(MAIL_BYTES).toString()}\r\n.\r\n`);
      await late.waitFor((c) => c.replies().length === 6, 'the answer to DATA');
      expect(late.replies()[5]).toMatch(/^452 4\.2\.2 /);
      late.destroy();

      expect(await send(full.to)).toEqual({
        accepted: false,
        code: 452,
        reply: `452 4.2.2 <${full.to}>: mailbox over its quota of ${QUOTA} bytes a day, try again later`,
      });
      expect(await total(full.userId)).toBe(4);

      // One transaction for both: the user at its quota is refused at RCPT, the other stores it.
      const transport = createTransport({ host: '127.0.0.1', port: app.port(), ignoreTLS: true });
      try {
        const info = await transport.sendMail({
          envelope: { from: 'cara@example.org', to: [full.to, other.to] },
          raw: mailOfSize(MAIL_BYTES),
        });
        expect({ accepted: info.accepted, rejected: info.rejected }).toEqual({
          accepted: [other.to],
          rejected: [full.to],
        });
        expect(info.rejectedErrors?.map((error) => (error as { responseCode?: number }).responseCode)).toEqual([452]);
      } finally {
        transport.close();
      }
      expect(await total(other.userId)).toBe(1);
      expect(await total(full.userId)).toBe(4);
    },
    TIMEOUT,
  );

  it(
    "stores every user's copy at DATA when one user of the mail filled its quota after RCPT: 452 is for a mail whose users are all full",
    async () => {
      for (let i = 0; i < 3; i++) expect(await send(filled.to)).toMatchObject({ accepted: true });

      // Both users pass RCPT under their quotas; another session's mail then fills the first's.
      const late = new RawSmtpClient(app.port());
      await late.greeted();
      late.write(
        `EHLO late.example.net\r\nMAIL FROM:<cara@example.org>\r\nRCPT TO:<${filled.to}>\r\nRCPT TO:<${sharing.to}>\r\nDATA\r\n`,
      );
      await late.waitFor((c) => c.replies().some((line) => line.startsWith('354')), '354');
      expect(await send(filled.to)).toMatchObject({ accepted: true });
      late.write(`${mailOfSize(MAIL_BYTES).toString()}\r\n.\r\n`);
      await late.waitFor((c) => c.replies().length === 7, 'the answer to DATA');
      expect(late.replies()[6]).toMatch(/^250 /);
      late.destroy();

      // The other user's copy is stored, and so is the filled user's (a mail in flight may pass the quota).
      expect(await total(sharing.userId)).toBe(1);
      expect(await total(filled.userId)).toBe(5);
      expect(await send(filled.to)).toMatchObject({ accepted: false, code: 452 });
    },
    TIMEOUT,
  );
});
