// Port 25 faces the internet (docs/inbound.md): each limit of a received mail at its maximum (taken) and
// one past it (refused whole with its documented reply, nothing stored), sent by nodemailer's
// SMTP transport; the recipient limit spoken by a raw pipelining client.
import { InboundMailLimits } from '../../../src/inbound/inbound-mail-limits';
import { MAX_HEADER_BYTES } from '../../../src/platform/mail/header-fields';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { RawSmtpClient } from '../../support/raw-smtp-client';
import {
  attachmentPart,
  mailNested,
  mailOfParts,
  mailOfSize,
  mailWithHeaderBlock,
  mailWithLine,
  textPart,
} from '../../support/inbound/hostile-mail';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';

const MIB = 1024 * 1024;

describe('inbound mail limits', () => {
  const app = bootInboundApp();
  const limits = new InboundMailLimits();
  const mailbox = app.mailbox('limits');

  const total = async () => (await app.list(mailbox.userId)).total as number;

  it.each([
    ['size (INBOUND_MAX_BYTES, 10 MiB)', mailOfSize(10 * MIB), mailOfSize(10 * MIB + 1), /^552 /],
    [
      `header block (${MAX_HEADER_BYTES} bytes)`,
      mailWithHeaderBlock(MAX_HEADER_BYTES),
      mailWithHeaderBlock(MAX_HEADER_BYTES + 1),
      /^552 5\.3\.4 Message refused: a header block over 65536 bytes/,
    ],
    [
      `MIME depth (${limits.mimeDepth})`,
      mailNested(limits.mimeDepth),
      mailNested(limits.mimeDepth + 1),
      /^552 5\.3\.4 Message refused: MIME parts nested more than 32 deep/,
    ],
    [
      `MIME parts (${limits.mimeParts})`,
      mailOfParts(limits.mimeParts, textPart),
      mailOfParts(limits.mimeParts + 1, textPart),
      /^552 5\.3\.4 Message refused: more than 1000 MIME parts/,
    ],
    [
      `attachments (${limits.attachments})`,
      mailOfParts(limits.attachments + 1, attachmentPart),
      mailOfParts(limits.attachments + 2, attachmentPart),
      /^552 5\.3\.4 Message refused: more than 250 attachments/,
    ],
    [
      `line length (${limits.lineBytes} bytes)`,
      mailWithLine(limits.lineBytes),
      mailWithLine(limits.lineBytes + 1),
      /^552 5\.3\.4 Message refused: a line longer than 1048576 bytes/,
    ],
  ])(
    'takes a mail at the %s limit and refuses one past it, storing nothing of it',
    async (_, atLimit, pastLimit, refusal) => {
      const before = await total();
      expect(await sendWithNodemailer(app.port(), mailbox.to, atLimit, 'cara@example.org')).toMatchObject({
        accepted: true,
      });
      expect(await total()).toBe(before + 1);
      const refused = await sendWithNodemailer(app.port(), mailbox.to, pastLimit, 'cara@example.org');
      expect(refused).toMatchObject({ accepted: false, code: 552, reply: expect.stringMatching(refusal) });
      expect(await total()).toBe(before + 1);
    },
    TIMEOUT,
  );

  it(
    `takes ${limits.recipients} recipients in one pipelined transaction, refuses the next (452), and stores the mail once`,
    async () => {
      const before = await total();
      const client = new RawSmtpClient(app.port());
      await client.greeted();
      const [local, domain] = mailbox.to.split('@');
      const rcpts = Array.from({ length: limits.recipients + 1 }, (_, i) => `RCPT TO:<${local}+${i}@${domain}>\r\n`);
      // Everything at once, as a PIPELINING client may (RFC 2920).
      client.write(`EHLO relay.example.net\r\nMAIL FROM:<cara@example.org>\r\n${rcpts.join('')}DATA\r\n`);
      await client.waitFor((c) => c.replies().some((line) => line.startsWith('354')), '354');
      client.write('Subject: to many\r\n\r\nhello\r\n.\r\nQUIT\r\n');
      await client.waitFor((c) => c.replies().some((line) => line.startsWith('221')), '221');
      const codes = client.replies().map((line) => Number(line.slice(0, 3)));
      expect(codes).toEqual([220, 250, 250, ...Array(limits.recipients).fill(250), 452, 354, 250, 221]);
      const [item] = (await app.list(mailbox.userId)).inbound;
      expect(await total()).toBe(before + 1);
      expect(item.envelope.rcptTo).toHaveLength(limits.recipients);
      client.destroy();
    },
    TIMEOUT,
  );
});
