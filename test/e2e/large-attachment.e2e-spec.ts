// A 9 MiB attachment, inline (base64 in the JSON body) or stored (multipart upload), is accepted
// and reaches a real SMTP server byte for byte, as mailparser decodes the delivered message.
import { randomBytes } from 'node:crypto';
import { sendBody } from '../support/factories';
import { deliveringApp } from '../support/delivering-app';
import { bearer, newUserId } from '../support/tokens';
import { waitForStatus } from '../support/wait-for';

const NINE_MIB = 9 * 1024 * 1024;

describe('a 9 MiB attachment', () => {
  // docs/configuration.md's default MAX_ATTACHMENT_BYTES (10 MiB) applies.
  const { t, sink } = deliveringApp();

  async function deliveredAttachment(userId: string, messageId: string) {
    await waitForStatus(t.http, userId, messageId, 'sent', 60_000);
    const [mail] = sink.acceptedFor(messageId);
    expect(mail.parsed.attachments).toHaveLength(1);
    return mail.parsed.attachments[0];
  }

  it('is accepted inline and delivered intact', async () => {
    const userId = newUserId();
    const bytes = randomBytes(NINE_MIB);

    const { body: message } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ attachments: [{ fileName: 'archive.zip', content: bytes.toString('base64') }] }))
      .expect(201);

    const attachment = await deliveredAttachment(userId, message.id);
    expect(attachment).toMatchObject({ filename: 'archive.zip', contentType: 'application/zip', size: NINE_MIB });
    expect(attachment.content.equals(bytes)).toBe(true);
  }, 90_000);

  it('is accepted as an upload and delivered intact', async () => {
    const userId = newUserId();
    const bytes = randomBytes(NINE_MIB);
    const upload = await t.http.post('/attachments').set(bearer(userId)).attach('file', bytes, 'scan.pdf').expect(201);
    expect(upload.body.size).toBe(NINE_MIB);

    const { body: message } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ attachmentIds: [upload.body.id] }))
      .expect(201);

    const attachment = await deliveredAttachment(userId, message.id);
    expect(attachment).toMatchObject({ filename: 'scan.pdf', contentType: 'application/pdf', size: NINE_MIB });
    expect(attachment.content.equals(bytes)).toBe(true);
  }, 90_000);
});
