// @mailroom/sdk's inbound against the real app: mail sent to the inbound listener by nodemailer,
// read back as a page, as a walk over every page, one by one, as raw bytes and by attachment.
import MailComposer from 'nodemailer/lib/mail-composer';
import { sendWithNodemailer } from '../../support/bounces/smtp-clients';
import { bootInboundApp, TIMEOUT } from '../../support/inbound/inbound-app';
import { baseUrlOf, sdkAs, thrown } from '../../support/sdk';

const PDF = Buffer.from('%PDF-1.4 inbound bytes \u00ff\u0000', 'latin1');

describe('the SDK: inbound mail', () => {
  const app = bootInboundApp();
  const mailbox = app.mailbox('sdk-inbound');
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await baseUrlOf(app.t);
  }, TIMEOUT);

  it(
    'lists, walks, reads and downloads received mail',
    async () => {
      const raws: Buffer[] = [];
      for (let i = 0; i < 3; i++) {
        const raw = await new MailComposer({
          from: 'cara@example.org',
          to: mailbox.to,
          subject: `Question ${i}`,
          text: `Body ${i}`,
          attachments: [{ filename: 'invoice.pdf', content: PDF, contentType: 'application/pdf' }],
        })
          .compile()
          .build();
        expect(await sendWithNodemailer(app.port(), [mailbox.to], raw, 'cara@example.org')).toMatchObject({
          accepted: true,
        });
        raws.push(raw);
      }
      const mailroom = sdkAs(baseUrl, mailbox.userId);
      const page = await mailroom.inbound.list({ take: 2, fromEmail: 'CARA@example.org' });
      expect(page).toMatchObject({ take: 2, total: 3, hasNext: true, fromEmail: 'cara@example.org' });
      const walked = [];
      for await (const item of mailroom.inbound.listAll({ take: 2 })) walked.push(item.subject);
      expect(walked).toEqual(['Question 2', 'Question 1', 'Question 0']);

      const newest = page.inbound[0];
      expect(await mailroom.inbound.get(newest.id)).toMatchObject({ id: newest.id, text: 'Body 2' });
      expect(Buffer.from(await mailroom.inbound.raw(newest.id))).toEqual(raws[2]);
      expect(Buffer.from(await mailroom.inbound.attachment(newest.id, 0))).toEqual(PDF);
      expect(await thrown(mailroom.inbound.attachment(newest.id, 1))).toMatchObject({ status: 404 });
      const stranger = sdkAs(baseUrl, 'someone-else');
      expect(await thrown(stranger.inbound.get(newest.id))).toMatchObject({ status: 404, title: 'Not Found' });
    },
    TIMEOUT,
  );
});
