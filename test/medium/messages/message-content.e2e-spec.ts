// Reading back what was sent (docs/api.md#reading-back): the content, each attachment and the .eml of messages
// sent through the API (inline and stored attachments, non-ASCII names, a custom header, bulk mail
// sent as one copy per recipient, text-only, scheduled and canceled) and over SMTP submission,
// each .eml parsed by mailparser and compared with what a real SMTP sink received.
import { simpleParser } from 'mailparser';
import { apiKeyFor, submissionPort, submitWithNodemailer } from '../../support/submission/submission-clients';
import { deliveringApp } from '../../support/delivering-app';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { asBytes, expectByteHeaders, headerFields, partsOf, PER_COPY } from '../../support/read-back/read-back-support';

const TIMEOUT = 60_000;
// A 1×1 PNG, as an inline image would be.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const NOTES = Buffer.from('Grüße aus Köln – März\n');
const PDF = Buffer.from('%PDF-1.4 Rechnung Nº 42 ✓');

describe('reading back a message (docs/api.md#reading-back)', () => {
  const { t, sink } = deliveringApp({ SUBMISSION_SMTP_PORT: '0', SUBMISSION_ALLOW_INSECURE_AUTH: 'true' });
  const userId = newUserId('read-back');
  const get = (path: string) => t.http.get(path).set(bearer(userId));
  const bytes = (path: string) => get(path).buffer(true).parse(asBytes);

  /** The message sent with every kind of attachment, delivered. */
  let rich: { id: string; sentAt: string };
  let storedId: string;

  beforeAll(async () => {
    storedId = (
      await t.http
        .post('/attachments')
        .set(bearer(userId))
        .attach('file', PDF, { filename: 'Rechnung Nº 42.pdf', contentType: 'application/pdf' })
        .expect(201)
    ).body.id;
    const sent = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(
        sendBody({
          sender: 'Zoë Billing <billing@example.com>',
          cc: ['Åsa Ek <asa@example.com>'],
          bcc: ['hidden@example.com'],
          replyTo: ['help@example.com'],
          subject: 'Ihre Rechnung – März',
          html: '<p>Hallo Ada</p><img src="cid:logo@mailroom" alt="Logo">',
          headers: { 'X-Campaign': 'spring-2026', 'X-Ticket': 'Nº 7 – offen' },
          attachments: [
            {
              fileName: 'logo.png',
              content: PNG.toString('base64'),
              contentType: 'image/png',
              contentId: 'logo@mailroom',
            },
            { fileName: 'Übersicht – März.txt', content: NOTES.toString('base64') },
          ],
          attachmentIds: [storedId],
        }),
      )
      .expect(201);
    rich = await waitForStatus(t.http, userId, sent.body.id, 'sent');
  }, TIMEOUT);

  it('gives the content: the HTML, the text derived from it, the custom headers and the attachments in delivery order', async () => {
    const { body } = await get(`/user/messages/${rich.id}/content`).expect(200);

    expect(body).toEqual({
      html: '<p>Hallo Ada</p><img src="cid:logo@mailroom" alt="Logo">',
      text: expect.stringContaining('Hallo Ada'),
      headers: { 'X-Campaign': 'spring-2026', 'X-Ticket': 'Nº 7 – offen' },
      attachments: [
        { index: 0, fileName: 'logo.png', contentType: 'image/png', size: PNG.length, contentId: 'logo@mailroom' },
        { index: 1, fileName: 'Übersicht – März.txt', contentType: 'text/plain', size: NOTES.length, contentId: null },
        { index: 2, fileName: 'Rechnung Nº 42.pdf', contentType: 'application/pdf', size: PDF.length, contentId: null },
      ],
    });
    // The text is the one delivered (derived for delivery), not another derivation.
    expect(body.text).toBe(sink.acceptedFor(rich.id)[0].parsed.text?.replace(/\n$/, ''));
  });

  it('serves each attachment, inline and stored, with its bytes, stored type and name, as a sandboxed download', async () => {
    const expected = [
      [PNG, 'image/png', 'logo.png'],
      [NOTES, 'text/plain', 'Übersicht – März.txt'],
      [PDF, 'application/pdf', 'Rechnung Nº 42.pdf'],
    ] as const;
    for (const [index, [content, type, name]] of expected.entries()) {
      const response = await bytes(`/user/messages/${rich.id}/attachments/${index}`).expect(200);
      expect(Buffer.compare(response.body as Buffer, content)).toBe(0);
      expectByteHeaders(response, type, name);
      expect(response.headers['content-length']).toBe(String(content.length));
    }
  });

  it('answers 404 for an index out of range or not an index', async () => {
    for (const index of ['3', '-1', '01', '1.0', 'abc', '32768', '999999999', '99999999999999999999', '%20', '0x1']) {
      const { body } = await get(`/user/messages/${rich.id}/attachments/${index}`).expect(404);
      expect(body).toMatchObject({ status: 404, detail: expect.stringContaining(rich.id) });
    }
  });

  it('gives the .eml as composed for delivery: the headers the sink received but the per-copy ones, the same parts and bytes, no Bcc (the signature: src/messages/mime/compose.spec.ts)', async () => {
    const response = await bytes(`/user/messages/${rich.id}/raw`).expect(200);
    expectByteHeaders(response, 'message/rfc822', `${rich.id}.eml`);
    const eml = await simpleParser(response.body as Buffer);
    const [delivered] = sink.acceptedFor(rich.id);

    expect(headerFields(eml)).toEqual(headerFields(delivered.parsed));
    expect(partsOf(eml)).toEqual(partsOf(delivered.parsed));
    expect(eml.attachments).toHaveLength(3);
    // Dated when it was accepted; Bcc in no header, nor anywhere in the file.
    expect(eml.date?.getTime()).toBe(Math.floor(new Date(rich.sentAt).getTime() / 1000) * 1000);
    expect((response.body as Buffer).toString('latin1')).not.toMatch(/hidden@example\.com|^bcc:/im);
    expect(delivered.to).toContain('hidden@example.com');
  });

  it('leaves out what differs per recipient copy: each bulk copy is the .eml plus its own List-Unsubscribe', async () => {
    const sent = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(
        sendBody({
          to: ['ada@example.com', 'bob@example.com'],
          bulkSendingId: 'spring',
          headers: { 'X-Campaign': 'spring' },
        }),
      )
      .expect(201);
    await waitForStatus(t.http, userId, sent.body.id, 'sent');
    const eml = await simpleParser((await bytes(`/user/messages/${sent.body.id}/raw`).expect(200)).body as Buffer);
    const copies = sink.acceptedFor(sent.body.id);

    expect(copies.map((c) => c.to)).toEqual(expect.arrayContaining([['ada@example.com'], ['bob@example.com']]));
    expect(eml.headerLines.map((h) => h.key)).not.toContain('list-unsubscribe');
    for (const copy of copies) {
      expect(copy.parsed.headerLines.map((h) => h.key)).toContain('list-unsubscribe');
      expect(headerFields(eml)).toEqual(headerFields(copy.parsed));
      expect(partsOf(eml)).toEqual(partsOf(copy.parsed));
    }
    expect(PER_COPY).toContain('list-unsubscribe');
  });

  it('names a recipient skipped as suppressed at delivery, which the delivered To left out', async () => {
    await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: 'gone@example.com' }).expect(201);
    const sent = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ to: ['ada@example.com', 'gone@example.com'] }))
      .expect(201);
    await waitForStatus(t.http, userId, sent.body.id, 'sent');
    const eml = await simpleParser((await bytes(`/user/messages/${sent.body.id}/raw`).expect(200)).body as Buffer);
    const [delivered] = sink.acceptedFor(sent.body.id);

    expect(delivered.parsed.headers.get('to')).toMatchObject({ text: 'ada@example.com' });
    expect(eml.headers.get('to')).toMatchObject({ text: 'ada@example.com, gone@example.com' });
  });

  it('reads back each message of a batch as it was delivered', async () => {
    const { body } = await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .send({
        messages: [
          sendBody({ subject: 'Eins', attachments: [{ fileName: 'eins.txt', content: NOTES.toString('base64') }] }),
          sendBody({ subject: 'Zwei', text: 'Zwei als Text', headers: { 'X-Batch': '2' } }),
        ],
      })
      .expect(201);
    for (const [i, message] of (body.messages as { id: string }[]).entries()) {
      await waitForStatus(t.http, userId, message.id, 'sent');
      const content = await get(`/user/messages/${message.id}/content`).expect(200);
      const eml = await simpleParser((await bytes(`/user/messages/${message.id}/raw`).expect(200)).body as Buffer);
      const [delivered] = sink.acceptedFor(message.id);

      expect(content.body).toMatchObject(
        i === 0
          ? { headers: {}, attachments: [{ index: 0, fileName: 'eins.txt', size: NOTES.length }] }
          : { text: 'Zwei als Text', headers: { 'X-Batch': '2' }, attachments: [] },
      );
      expect(headerFields(eml)).toEqual(headerFields(delivered.parsed));
      expect(partsOf(eml)).toEqual(partsOf(delivered.parsed));
    }
  });

  it('answers HEAD on the byte endpoints with the same status and headers', async () => {
    for (const path of [`/user/messages/${rich.id}/raw`, `/user/messages/${rich.id}/attachments/1`]) {
      const full = await bytes(path).expect(200);
      const head = await t.http.head(path).set(bearer(userId)).expect(200);
      for (const name of ['content-type', 'content-disposition', 'x-content-type-options', 'content-security-policy'])
        expect([name, head.headers[name]]).toEqual([name, full.headers[name]]);
      expect(head.headers['content-length']).toBe(full.headers['content-length']);
    }
  });

  it('reads back a text-only message: no HTML, the text as given', async () => {
    const sent = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ html: undefined, text: 'Plain words\nand a second line' }))
      .expect(201);
    await waitForStatus(t.http, userId, sent.body.id, 'sent');

    const { body } = await get(`/user/messages/${sent.body.id}/content`).expect(200);
    const eml = await simpleParser((await bytes(`/user/messages/${sent.body.id}/raw`).expect(200)).body as Buffer);

    expect(body).toEqual({ html: null, text: 'Plain words\nand a second line', headers: {}, attachments: [] });
    expect(eml.html).toBe(false);
    expect(partsOf(eml)).toEqual(partsOf(sink.acceptedFor(sent.body.id)[0].parsed));
  });

  it('reads back a scheduled message before it is sent, and after it is canceled', async () => {
    const scheduledAt = new Date(Date.now() + 86_400_000).toISOString();
    const sent = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(
        sendBody({
          scheduledAt,
          text: 'Later',
          attachments: [{ fileName: 'später.txt', content: NOTES.toString('base64') }],
        }),
      )
      .expect(201);
    expect(sent.body.status).toBe('scheduled');

    for (const status of ['scheduled', 'canceled']) {
      if (status === 'canceled')
        await t.http.post(`/user/messages/${sent.body.id}/cancel`).set(bearer(userId)).expect(200);
      const { body } = await get(`/user/messages/${sent.body.id}`).expect(200);
      expect(body.status).toBe(status);
      const content = await get(`/user/messages/${sent.body.id}/content`).expect(200);
      expect(content.body).toMatchObject({
        html: '<p>Hello Ada</p>',
        text: 'Later',
        attachments: [{ index: 0, fileName: 'später.txt' }],
      });
      const attachment = await bytes(`/user/messages/${sent.body.id}/attachments/0`).expect(200);
      expect(Buffer.compare(attachment.body as Buffer, NOTES)).toBe(0);
      const eml = await simpleParser((await bytes(`/user/messages/${sent.body.id}/raw`).expect(200)).body as Buffer);
      expect({ subject: eml.subject, text: eml.text, files: eml.attachments.map((a) => a.filename) }).toEqual({
        subject: 'Your invoice',
        text: 'Later',
        files: ['später.txt'],
      });
    }
    // Never delivered: the sink saw nothing of it.
    expect(sink.attemptsFor(sent.body.id)).toBe(0);
  });

  it('reads back a message submitted over SMTP: what its MIME carries, and the .eml byte for byte as delivered', async () => {
    const { key } = await apiKeyFor(t, userId);
    const outcome = await submitWithNodemailer(submissionPort(t), key, {
      from: 'Zoë <zoe@example.com>',
      to: 'ada@example.com',
      bcc: 'secret@example.com',
      subject: 'Über SMTP',
      text: 'Hallo über SMTP',
      html: '<p>Hallo über SMTP</p><img src="cid:logo@smtp">',
      headers: { 'X-Order-Ref': 'A-1 – ü' },
      attachments: [
        { filename: 'logo.png', content: PNG, contentType: 'image/png', cid: 'logo@smtp' },
        { filename: 'Ärger – Liste.txt', content: NOTES, contentType: 'text/plain' },
      ],
    });
    if (!outcome.accepted) throw new Error(`the submission was refused: ${outcome.reply}`);
    const id = outcome.messageId;
    await waitForStatus(t.http, userId, id, 'sent');

    const { body } = await get(`/user/messages/${id}/content`).expect(200);
    expect(body).toEqual({
      html: '<p>Hallo über SMTP</p><img src="cid:logo@smtp">',
      text: 'Hallo über SMTP',
      headers: { 'X-Order-Ref': 'A-1 – ü' },
      attachments: [
        { index: 0, fileName: 'logo.png', contentType: 'image/png', size: PNG.length, contentId: 'logo@smtp' },
        { index: 1, fileName: 'Ärger – Liste.txt', contentType: 'text/plain', size: NOTES.length, contentId: null },
      ],
    });
    for (const [index, [content, type, name]] of (
      [
        [PNG, 'image/png', 'logo.png'],
        [NOTES, 'text/plain', 'Ärger – Liste.txt'],
      ] as const
    ).entries()) {
      const response = await bytes(`/user/messages/${id}/attachments/${index}`).expect(200);
      expect(Buffer.compare(response.body as Buffer, content)).toBe(0);
      expectByteHeaders(response, type, name);
    }
    await get(`/user/messages/${id}/attachments/2`).expect(404);

    const raw = await bytes(`/user/messages/${id}/raw`).expect(200);
    expectByteHeaders(raw, 'message/rfc822', `${id}.eml`);
    const [delivered] = sink.acceptedFor(id);
    expect((raw.body as Buffer).toString('latin1')).toBe(delivered.raw.toString('latin1'));
    expect((raw.body as Buffer).toString('latin1')).not.toContain('secret@example.com');
    expect(delivered.to).toContain('secret@example.com');
  });

  it('serves a submitted attachment whose Content-Type holds a control character as application/octet-stream', async () => {
    const { key } = await apiKeyFor(t, userId);
    // mailparser keeps the type as written; as a response header it would be refused (a 500).
    const raw = [
      'From: zoe@example.com',
      'To: ada@example.com',
      'Subject: A hostile part type',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'See the attachment.',
      '--b',
      'Content-Type: application/x\u0001evil',
      'Content-Disposition: attachment; filename="evil.bin"',
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
      '--b--',
      '',
    ].join('\r\n');
    const envelope = { from: 'zoe@example.com', to: ['ada@example.com'] };
    const outcome = await submitWithNodemailer(submissionPort(t), key, { envelope, raw });
    if (!outcome.accepted) throw new Error(`the submission was refused: ${outcome.reply}`);
    await waitForStatus(t.http, userId, outcome.messageId, 'sent');

    const response = await bytes(`/user/messages/${outcome.messageId}/attachments/0`);
    expect(response.status).toBe(200);
    expect(Buffer.compare(response.body as Buffer, PDF)).toBe(0);
    expectByteHeaders(response, 'application/octet-stream', 'evil.bin');
    const { body } = await get(`/user/messages/${outcome.messageId}/content`).expect(200);
    expect(body.attachments).toEqual([
      { index: 0, fileName: 'evil.bin', contentType: 'application/octet-stream', size: PDF.length, contentId: null },
    ]);
  });

  it('answers 404 for an unknown or malformed id on every read-back endpoint', async () => {
    for (const id of ['0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e', 'not-an-id', `${rich.id}x`]) {
      for (const path of ['content', 'attachments/0', 'raw']) {
        const response = await get(`/user/messages/${id}/${path}`).expect(404);
        expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      }
    }
  });

  it('needs scope read: a send-only key gets 403 naming it, a read key its answers', async () => {
    const sendOnly = (await apiKeyFor(t, userId, ['send'])).key;
    const readOnly = (await apiKeyFor(t, userId, ['read'])).key;
    for (const path of ['content', 'attachments/0', 'raw']) {
      const refused = await t.http
        .get(`/user/messages/${rich.id}/${path}`)
        .set('Authorization', `Bearer ${sendOnly}`)
        .expect(403);
      expect(refused.body.detail).toContain('read');
      await t.http.get(`/user/messages/${rich.id}/${path}`).set('Authorization', `Bearer ${readOnly}`).expect(200);
    }
  });
});
