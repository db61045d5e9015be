// Received mail as users read it (docs/inbound.md): composed and sent by nodemailer (MailComposer and
// its SMTP transport), read back through GET /user/inbound, its item, attachments and raw bytes
// (docs/api.md#reading-back's byte rules), one copy per user with only that user's recipients, replies linked to
// the user's own sent messages, and nobody else's mail ever reachable.
import { simpleParser } from 'mailparser';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { sendWithNodemailer, sendWithSmtplib } from '../../support/bounces/smtp-clients';
import { itIfPython } from '../../support/python';
import { bearer, newUserId } from '../../support/tokens';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';

const compose = (options: Mail.Options): Promise<Buffer> => new MailComposer(options).compile().build();
const PDF = Buffer.from('%PDF-1.4\n% not really a pdf, but bytes all the same \u00ff\u0000\n', 'latin1');

const itWithPython = itIfPython("inbound-mail: a mail sent by Python's smtplib");

describe('inbound mail', () => {
  const app = bootInboundApp();
  const { t } = app;

  it(
    'stores a mail as sent and serves its fields, headers, attachment and raw bytes',
    async () => {
      const userId = newUserId('reader');
      const domain = await app.receivingDomain(userId);
      const raw = await compose({
        from: '"Cara, from Example" <cara@example.org>',
        to: [`Support <support@${domain.name}>`, 'someone@elsewhere.example'],
        cc: `Sales Team <sales@${domain.name}>`,
        subject: 'Ünïcode subject, encoded',
        text: 'Hello there\nsecond line',
        html: '<p>Hello <b>there</b></p><img src="cid:logo@example.org">',
        messageId: '<first-mail@example.org>',
        headers: { 'X-Custom': 'kept as is' },
        attachments: [
          { filename: 'invoice €.pdf', content: PDF, contentType: 'application/pdf' },
          { filename: 'logo.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]), cid: 'logo@example.org' },
        ],
      });
      const outcome = await sendWithNodemailer(
        app.port(),
        [`support@${domain.name}`, `sales@${domain.name}`],
        raw,
        'bounces@example.org',
      );
      expect(outcome).toMatchObject({ accepted: true });

      const list = await app.list(userId);
      expect(list).toMatchObject({ take: 10, page: 1, skip: 0, total: 1, totalPages: 1, hasNext: false });
      expect(list).toMatchObject({ startDate: null, endDate: null, fromEmail: null, toEmail: null });
      const [item] = list.inbound;
      expect(item).toEqual({
        id: expect.any(String),
        receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        from: '"Cara, from Example" <cara@example.org>',
        to: [`Support <support@${domain.name}>`, 'someone@elsewhere.example'],
        cc: [`Sales Team <sales@${domain.name}>`],
        subject: 'Ünïcode subject, encoded',
        messageId: '<first-mail@example.org>',
        envelope: { mailFrom: 'bounces@example.org', rcptTo: [`support@${domain.name}`, `sales@${domain.name}`] },
        // In MIME order: nodemailer puts the inline image in the multipart/related before the attachment.
        attachments: [
          { index: 0, fileName: 'logo.png', contentType: 'image/png', size: 4 },
          { index: 1, fileName: 'invoice €.pdf', contentType: 'application/pdf', size: PDF.length },
        ],
        authentication: { spf: 'none', dkim: 'none', dmarc: 'none' },
        replyToMessageId: null,
      });

      const mail = await app.get(userId, item.id);
      expect(mail).toEqual({
        ...item,
        text: 'Hello there\nsecond line',
        html: '<p>Hello <b>there</b></p><img src="cid:logo@example.org">',
        headers: expect.any(Array),
      });
      // Every top-level field in order, as the parser nobody here wrote reads them.
      const reference = await simpleParser(raw);
      expect(reference.attachments.map((a) => a.filename)).toEqual(['logo.png', 'invoice €.pdf']);
      expect(mail.headers.map((h: { name: string }) => h.name.toLowerCase())).toEqual(
        reference.headerLines.map((h) => h.key),
      );
      expect(mail.headers).toEqual(
        expect.arrayContaining([
          { name: 'X-Custom', value: 'kept as is' },
          { name: 'Subject', value: 'Ünïcode subject, encoded' },
        ]),
      );

      const pdf = await app.bytes(userId, `/user/inbound/${item.id}/attachments/1`);
      expect(pdf.status).toBe(200);
      expect(Buffer.compare(pdf.body, PDF)).toBe(0);
      expect(pdf.headers).toMatchObject({
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename="invoice ?.pdf"; filename*=UTF-8''invoice%20%E2%82%AC.pdf`,
        'x-content-type-options': 'nosniff',
        'content-security-policy': 'sandbox',
      });

      const eml = await app.bytes(userId, `/user/inbound/${item.id}/raw`);
      expect(eml.status).toBe(200);
      expect(eml.headers).toMatchObject({
        'content-type': 'message/rfc822',
        'content-disposition': `attachment; filename=${item.id}.eml`,
        'x-content-type-options': 'nosniff',
      });
      // As it arrived: the bytes nodemailer sent, dot-stuffing undone, line ends CRLF.
      expect(eml.body.toString('latin1')).toBe(raw.toString('latin1').replace(/\r?\n/g, '\r\n'));

      await t.http.get(`/user/inbound/${item.id}/attachments/2`).set(bearer(userId)).expect(404);
      await t.http.get(`/user/inbound/${item.id}/attachments/x`).set(bearer(userId)).expect(404);
    },
    TIMEOUT,
  );

  it(
    'stores a mail for two users once each, each seeing only its own recipients, and hides each from the other (404)',
    async () => {
      const [ada, bob] = [newUserId('ada'), newUserId('bob')];
      const [adas, bobs] = [await app.receivingDomain(ada), await app.receivingDomain(bob)];
      const raw = await compose({
        from: 'cara@example.org',
        to: [`ada@${adas.name}`, `bob@${bobs.name}`],
        subject: 'to both',
        text: 'one mail, two readers',
      });
      expect(
        await sendWithNodemailer(
          app.port(),
          [`ada@${adas.name}`, `bob@${bobs.name}`, `ops@${adas.name}`],
          raw,
          'c@example.org',
        ),
      ).toMatchObject({ accepted: true });

      const [adaList, bobList] = [await app.list(ada), await app.list(bob)];
      expect(adaList.total).toBe(1);
      expect(bobList.total).toBe(1);
      const [adaItem, bobItem] = [adaList.inbound[0], bobList.inbound[0]];
      expect(adaItem.id).not.toBe(bobItem.id);
      expect(adaItem.envelope.rcptTo).toEqual([`ada@${adas.name}`, `ops@${adas.name}`]);
      expect(bobItem.envelope.rcptTo).toEqual([`bob@${bobs.name}`]);
      expect(adaItem.to).toEqual(bobItem.to);

      for (const path of ['', '/raw', '/attachments/0'])
        await t.http.get(`/user/inbound/${bobItem.id}${path}`).set(bearer(ada)).expect(404);
      await t.http.get('/user/inbound/not-an-id').set(bearer(ada)).expect(404);
      await t.http.get('/user/inbound/0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e/raw').set(bearer(ada)).expect(404);
    },
    TIMEOUT,
  );

  it(
    "links a reply to the user's own sent message by its Message-ID, and nobody else's",
    async () => {
      const [ada, eve] = [newUserId('ada-reply'), newUserId('eve')];
      const domain = await app.receivingDomain(ada);
      const sent = (
        await t.http
          .post('/sender/send')
          .set(bearer(ada))
          .send({ sender: `Ada <ada@${domain.name}>`, to: ['cara@example.org'], subject: 'Invoice', text: 'attached' })
          .expect(201)
      ).body;
      const evesSent = (
        await t.http
          .post('/sender/send')
          .set(bearer(eve))
          .send({ sender: `eve@${domain.name}`, to: ['cara@example.org'], subject: 'x', text: 'y' })
          .expect(201)
      ).body;
      const reply = (inReplyTo: string, references: string[]) =>
        compose({
          from: 'cara@example.org',
          to: `ada@${domain.name}`,
          subject: 'Re: Invoice',
          text: 'thanks',
          inReplyTo,
          references,
        });

      for (const raw of [
        await reply(`<${sent.id}@${domain.name}>`, []),
        await reply('<unrelated@example.org>', [`<${sent.id}@${domain.name.toUpperCase()}>`, '<other@example.org>']),
        await reply(`<${evesSent.id}@${domain.name}>`, []),
        await reply(`<${sent.id}@elsewhere.example>`, []),
      ])
        expect(await sendWithNodemailer(app.port(), `ada@${domain.name}`, raw, 'cara@example.org')).toMatchObject({
          accepted: true,
        });
      const { inbound } = await app.list(ada);
      // Newest first.
      expect(inbound.map((item: { replyToMessageId: string | null }) => item.replyToMessageId)).toEqual([
        null,
        null,
        sent.id,
        sent.id,
      ]);
    },
    TIMEOUT,
  );

  itWithPython(
    "stores a mail Python's smtplib sends from the null sender, as a bounce of another system would come",
    async () => {
      const userId = newUserId('smtplib');
      const domain = await app.receivingDomain(userId);
      const raw = await compose({
        from: 'mailer-daemon@example.org',
        to: `desk@${domain.name}`,
        subject: 'from python',
        text: 'hi',
      });
      expect(await sendWithSmtplib(app.port(), [`desk@${domain.name}`], raw)).toEqual({ accepted: true });
      const [item] = (await app.list(userId)).inbound;
      expect(item).toMatchObject({
        subject: 'from python',
        envelope: { mailFrom: '', rcptTo: [`desk@${domain.name}`] },
      });
    },
    TIMEOUT,
  );

  it(
    'filters and pages as the message list does, with exact totals, and refuses what the message list refuses (400)',
    async () => {
      const userId = newUserId('filters');
      const domain = await app.receivingDomain(userId);
      const send = async (from: string, rcpt: string, cc?: string) =>
        expect(
          await sendWithNodemailer(
            app.port(),
            rcpt,
            await compose({ from, to: rcpt, cc, subject: from, text: 'x' }),
            from,
          ),
        ).toMatchObject({ accepted: true });
      await send('Ann@Example.org', `sales@${domain.name}`);
      await send('bob@example.org', `desk@${domain.name}`, 'Watcher <watch@example.net>');
      await send('ann@example.org', `desk@${domain.name}`);

      const page = await app.list(userId, { take: 2, page: 2 });
      expect(page).toMatchObject({ take: 2, page: 2, skip: 2, total: 3, totalPages: 2, hasNext: false });
      expect(page.inbound.map((i: { subject: string }) => i.subject)).toEqual(['Ann@Example.org']);
      const fromAnn = await app.list(userId, { fromEmail: 'ANN@example.org' });
      expect({ total: fromAnn.total, fromEmail: fromAnn.fromEmail }).toEqual({
        total: 2,
        fromEmail: 'ann@example.org',
      });
      expect((await app.list(userId, { toEmail: `desk@${domain.name}` })).total).toBe(2);
      expect((await app.list(userId, { toEmail: 'watch@example.net' })).total).toBe(1);
      // The UTC day of the newest mail, and how many were received that day (all three, unless midnight fell between).
      const all = (await app.list(userId)).inbound.map((i: { receivedAt: string }) => i.receivedAt.slice(0, 10));
      const dated = await app.list(userId, { startDate: all[0], endDate: all[0] });
      expect({ total: dated.total, startDate: dated.startDate, endDate: dated.endDate }).toEqual({
        total: all.filter((day: string) => day === all[0]).length,
        startDate: `${all[0]}T00:00:00.000Z`,
        endDate: `${all[0]}T23:59:59.999Z`,
      });
      expect((await app.list(userId, { endDate: '2020-01-01' })).total).toBe(0);

      for (const [query, field] of [
        [{ take: '101' }, 'take'],
        [{ page: '0' }, 'page'],
        [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'endDate'],
        [{ toEmail: 'ada' }, 'toEmail'],
        [{ statuses: 'sent' }, 'statuses'],
      ] as const) {
        const refused = await t.http.get('/user/inbound').query(query).set(bearer(userId)).expect(400);
        expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      }
    },
    TIMEOUT,
  );
});
