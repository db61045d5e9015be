// What the internet sends to port 25 (docs/inbound.md): malformed MIME, charsets, a mail of headers
// alone, 8-bit and binary bodies, NUL bytes, a megabyte of folded header lines, a slow client and
// many at once. Each is either stored whole or refused with a documented reply, never a 451 or
// another 5xx, and never half stored.
import { createTransport } from 'nodemailer';
import { sendWithNodemailer } from '../support/bounces/smtp-clients';
import { RawSmtpClient } from '../support/raw-smtp-client';
import { rawMail } from '../support/inbound/hostile-mail';
import { bootInboundApp, TIMEOUT } from '../support/inbound/inbound-app';

const FROM = 'From: cara@example.org';

describe('hostile inbound mail', () => {
  const app = bootInboundApp();
  const mailbox = app.mailbox('hostile');

  /** Sends the mail and reads back what was stored of it, by its subject. */
  const storeAndRead = async (raw: Buffer, subject: string) => {
    expect(await sendWithNodemailer(app.port(), mailbox.to, raw, 'cara@example.org')).toMatchObject({ accepted: true });
    const { inbound } = await app.list(mailbox.userId, { take: 100 });
    const items = inbound.filter((item: { subject: string | null }) => item.subject === subject);
    expect(items).toHaveLength(1);
    return app.get(mailbox.userId, items[0].id);
  };

  it.each([
    [
      'a multipart without a boundary parameter',
      rawMail(
        [FROM, 'Subject: no boundary', 'Content-Type: multipart/mixed'],
        '--x\r\nContent-Type: text/plain\r\n\r\nlost\r\n--x--\r\n',
      ),
      'no boundary',
      // mailparser finds no part in it; the raw mail keeps every byte.
      { text: null, html: null },
    ],
    [
      'a multipart whose boundary never closes',
      rawMail(
        [FROM, 'Subject: open boundary', 'Content-Type: multipart/alternative; boundary="b"'],
        '--b\r\nContent-Type: text/plain\r\n\r\nplain\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>html',
      ),
      'open boundary',
      { text: 'plain', html: expect.stringContaining('<p>html') },
    ],
    [
      'base64 that is not base64',
      rawMail(
        [FROM, 'Subject: bad base64', 'Content-Type: text/plain', 'Content-Transfer-Encoding: base64'],
        '!!!not*base64###\r\n',
      ),
      'bad base64',
      {},
    ],
    [
      'ISO-8859-1 and an encoded-word subject',
      rawMail(
        [FROM, 'Subject: =?ISO-8859-1?Q?caf=E9?=', 'Content-Type: text/plain; charset=ISO-8859-1'],
        'caf\xe9 cr\xe8me',
      ),
      'café',
      { text: 'café crème\n' },
    ],
    [
      'Shift_JIS',
      Buffer.concat([
        rawMail([FROM, 'Subject: sjis', 'Content-Type: text/plain; charset=Shift_JIS']),
        Buffer.from([0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd]),
      ]),
      'sjis',
      { text: 'こんにちは\n' },
    ],
    [
      'an unknown charset',
      rawMail([FROM, 'Subject: unknown charset', 'Content-Type: text/plain; charset=x-no-such-charset'], 'plain ascii'),
      'unknown charset',
      { text: 'plain ascii\n' },
    ],
    [
      'undeclared 8-bit UTF-8',
      Buffer.concat([rawMail([FROM, 'Subject: eight bit']), Buffer.from('naïve façade ✓', 'utf8')]),
      'eight bit',
      { text: 'naïve façade ✓\n' },
    ],
    [
      'a binary body',
      Buffer.concat([
        rawMail([
          FROM,
          'Subject: binary',
          'Content-Type: application/octet-stream',
          'Content-Transfer-Encoding: binary',
        ]),
        Buffer.from(Array.from({ length: 256 }, (_, i) => (i === 10 || i === 13 ? 32 : i))),
      ]),
      'binary',
      { text: null, html: null },
    ],
    [
      'NUL bytes in a header and the body',
      rawMail([FROM, 'Subject: nul', 'X-Nul: a\0b'], 'before\0after'),
      'nul',
      { text: 'before\ufffdafter\n', headers: expect.arrayContaining([{ name: 'X-Nul', value: 'a\ufffdb' }]) },
    ],
  ])(
    'stores %s',
    async (_, raw, subject, expected) => {
      expect(await storeAndRead(raw, subject)).toMatchObject(expected);
    },
    TIMEOUT,
  );

  it(
    'stores a mail that is all headers, without the blank line or a body',
    async () => {
      const raw = Buffer.from(`${FROM}\r\nSubject: all headers\r\nX-A: 1\r\nX-B: 2\r\n`);
      const mail = await storeAndRead(raw, 'all headers');
      expect(mail.headers.map((h: { name: string }) => h.name)).toEqual(['From', 'Subject', 'X-A', 'X-B']);
    },
    TIMEOUT,
  );

  it(
    'refuses a megabyte of folded header lines at once (552), storing nothing',
    async () => {
      const before = (await app.list(mailbox.userId)).total;
      const raw = Buffer.from(`${FROM}\r\nSubject: folded${' x\r\n'.repeat(256 * 1024)}\r\nbody\r\n`);
      expect(await sendWithNodemailer(app.port(), mailbox.to, raw, 'cara@example.org')).toMatchObject({
        accepted: false,
        code: 552,
        reply: expect.stringMatching(/header block over 65536 bytes/),
      });
      expect((await app.list(mailbox.userId)).total).toBe(before);
    },
    TIMEOUT,
  );

  it(
    'serves other clients while one drips its mail, and stores the slow one too',
    async () => {
      const slow = new RawSmtpClient(app.port());
      await slow.greeted();
      slow.write(`EHLO slow.example.net\r\nMAIL FROM:<cara@example.org>\r\nRCPT TO:<${mailbox.to}>\r\nDATA\r\n`);
      await slow.waitFor((c) => c.replies().some((line) => line.startsWith('354')), '354');
      slow.write(`${FROM}\r\nSubject: dripped\r\n\r\n`);
      // Between each word it drips, another client's whole mail goes through.
      for (const [i, word] of ['one ', 'word ', 'at ', 'a ', 'time'].entries()) {
        const quick = rawMail([FROM, `Subject: quick ${i}`], 'fast');
        expect(await sendWithNodemailer(app.port(), mailbox.to, quick, 'c@example.org')).toMatchObject({
          accepted: true,
        });
        expect(slow.replies().map((line) => line.slice(0, 3))).toEqual(['220', '250', '250', '250', '354']);
        slow.write(word);
      }
      slow.write('\r\n.\r\nQUIT\r\n');
      await slow.waitFor((c) => c.replies().some((line) => line.startsWith('221')), '221');
      expect(slow.replies().map((line) => line.slice(0, 3))).toEqual(['220', '250', '250', '250', '354', '250', '221']);
      slow.destroy();
      const { inbound } = await app.list(mailbox.userId, { take: 100 });
      const dripped = inbound.find((item: { subject: string }) => item.subject === 'dripped');
      expect((await app.get(mailbox.userId, dripped.id)).text).toBe('one word at a time\n');
    },
    TIMEOUT,
  );

  it(
    'takes 30 clients at once, each with its own connection, and stores each mail once',
    async () => {
      const before = (await app.list(mailbox.userId)).total;
      const sends = Array.from({ length: 30 }, async (_, i) => {
        const transport = createTransport({
          host: '127.0.0.1',
          port: app.port(),
          ignoreTLS: true,
          name: `c${i}.example.net`,
          // Three addresses of ten: one address may hold twenty at most (SmtpSessionLimits.clientsPerAddress).
          localAddress: `127.0.2.${i % 3}`,
        });
        try {
          return await transport.sendMail({
            envelope: { from: 'cara@example.org', to: [mailbox.to] },
            raw: rawMail([FROM, `Subject: crowd ${i}`], `mail ${i}`),
          });
        } finally {
          transport.close();
        }
      });
      const answers = await Promise.all(sends);
      expect(answers.every((answer) => /^250 /.test(String(answer.response)))).toBe(true);
      const { inbound, total } = await app.list(mailbox.userId, { take: 100 });
      expect(total).toBe(before + 30);
      const subjects = inbound
        .map((item: { subject: string }) => item.subject)
        .filter((s: string) => s.startsWith('crowd '));
      expect(new Set(subjects).size).toBe(30);
    },
    TIMEOUT,
  );
});
