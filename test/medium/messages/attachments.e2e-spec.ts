import { sendBody, rowsOwnedBy } from '../../support/factories';
import { deliveringApp } from '../../support/delivering-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const LIMIT = 64;

/** A multipart body written by hand, for part headers that well-behaved clients never send. */
function multipart(disposition: string, contentType?: string): { type: string; body: string } {
  const headers = [
    `Content-Disposition: form-data; name="file"; ${disposition}`,
    ...(contentType ? [`Content-Type: ${contentType}`] : []),
  ];
  return {
    type: 'multipart/form-data; boundary=b0undary',
    body: `--b0undary\r\n${headers.join('\r\n')}\r\n\r\nx\r\n--b0undary--\r\n`,
  };
}

describe('stored attachments', () => {
  const { t, sink } = deliveringApp({ MAX_ATTACHMENT_BYTES: String(LIMIT) });

  const upload = (userId: string, content: Buffer, fileName = 'report.pdf', contentType?: string) =>
    t.http.post('/attachments').set(bearer(userId)).attach('file', content, { filename: fileName, contentType });

  const expectProblem = (body: Record<string, unknown>, status: number) =>
    expect(body).toMatchObject({
      type: 'about:blank',
      status,
      detail: expect.any(String),
      requestId: expect.any(String),
    });

  describe('POST /attachments', () => {
    it('stores the file for the caller and describes it', async () => {
      const userId = newUserId();
      const res = await upload(userId, Buffer.from('%PDF-1.4'), 'report.pdf', 'application/pdf').expect(201);

      expect(res.body).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        fileName: 'report.pdf',
        contentType: 'application/pdf',
        size: 8,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const [row] = await t.db.query(`SELECT user_id, content FROM attachments WHERE id = $1`, [res.body.id]);
      expect(row.user_id).toBe(userId);
      expect(row.content).toEqual(Buffer.from('%PDF-1.4'));
    });

    it('keeps a UTF-8 file name as sent', async () => {
      const res = await upload(newUserId(), Buffer.from('x'), 'Rechnung März 📄.txt').expect(201);

      expect(res.body.fileName).toBe('Rechnung März 📄.txt');
      expect(res.body.contentType).toBe('text/plain');
    });

    const uploadRaw = (userId: string, part: { type: string; body: string }) =>
      t.http.post('/attachments').set(bearer(userId)).set('Content-Type', part.type).send(part.body);

    it.each([
      ['a name with a known extension', 'filename="photo.png"', 'application/octet-stream', 'image/png'],
      ['a name without one and a declared type', 'filename="scan"', 'application/pdf', 'application/pdf'],
      ['a name without one and no declared type', 'filename="scan"', undefined, 'text/plain'],
    ])('chooses the content type from %s', async (_case, disposition, declared, expected) => {
      const res = await uploadRaw(newUserId(), multipart(disposition, declared)).expect(201);

      expect(res.body.contentType).toBe(expected);
    });

    it.each([
      ['a Unix path', 'filename="/etc/passwd"', 'passwd'],
      ['a Windows path', 'filename="C:\\\\Users\\\\ada\\\\report.pdf"', 'report.pdf'],
    ])('keeps only the last segment of %s', async (_case, disposition, expected) => {
      const res = await uploadRaw(newUserId(), multipart(disposition)).expect(201);

      expect(res.body.fileName).toBe(expected);
    });

    it.each([
      ['a line break', "filename*=UTF-8''evil%0D%0ABcc%3A%20x%40example.com.txt"],
      ['a NUL', "filename*=UTF-8''evil%00.txt"],
      ['more than 255 characters', `filename="${'a'.repeat(252)}.txt"`],
    ])('refuses a file name with %s with 400 and stores nothing', async (_case, disposition) => {
      const userId = newUserId();
      const res = await uploadRaw(userId, multipart(disposition)).expect(400);

      expectProblem(res.body, 400);
      expect(res.body.errors).toEqual([{ field: 'file', message: expect.any(String) }]);
      expect((await rowsOwnedBy(t.db, userId)).storedAttachments).toBe(0);
    });

    it('accepts a file of exactly MAX_ATTACHMENT_BYTES and refuses one byte more with 413', async () => {
      const userId = newUserId();
      await upload(userId, Buffer.alloc(LIMIT)).expect(201);

      const res = await upload(userId, Buffer.alloc(LIMIT + 1)).expect(413);

      expectProblem(res.body, 413);
      expect((await rowsOwnedBy(t.db, userId)).storedAttachments).toBe(1);
    });

    it('refuses a multipart body without a file part, two files, a file under another name, or extra fields', async () => {
      const userId = newUserId();
      const cases = [
        t.http.post('/attachments').set(bearer(userId)).field('note', 'hello'),
        t.http
          .post('/attachments')
          .set(bearer(userId))
          .attach('file', Buffer.from('a'), 'a.txt')
          .attach('file', Buffer.from('b'), 'b.txt'),
        t.http.post('/attachments').set(bearer(userId)).attach('upload', Buffer.from('a'), 'a.txt'),
        t.http
          .post('/attachments')
          .set(bearer(userId))
          .attach('file', Buffer.from('a'), 'a.txt')
          .field('note', 'hello'),
      ];
      for (const pending of cases) {
        const res = await pending;
        expect(res.status).toBe(400);
        expectProblem(res.body, 400);
      }
      expect((await rowsOwnedBy(t.db, userId)).storedAttachments).toBe(0);
    });

    it('answers 415 to a body that is not multipart', async () => {
      const res = await t.http.post('/attachments').set(bearer(newUserId())).send({ file: 'aGk=' }).expect(415);

      expectProblem(res.body, 415);
    });

    it('answers 400 to a truncated multipart body', async () => {
      const res = await t.http
        .post('/attachments')
        .set(bearer(newUserId()))
        .set('Content-Type', 'multipart/form-data; boundary=xyz')
        .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunfinished')
        .expect(400);

      expectProblem(res.body, 400);
    });

    it('needs a token before it reads anything', async () => {
      const res = await t.http.post('/attachments').attach('file', Buffer.from('x'), 'a.txt').expect(401);

      expectProblem(res.body, 401);
    });
  });

  describe('attachmentIds in POST /sender/send', () => {
    const send = (userId: string, overrides: Record<string, unknown>) =>
      t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides));

    it('delivers stored attachments after the inline ones, each once', async () => {
      const userId = newUserId();
      const pdf = (await upload(userId, Buffer.from('%PDF-1.4 stored'), 'stored.pdf', 'application/pdf').expect(201))
        .body;

      const message = (
        await send(userId, {
          attachments: [{ fileName: 'inline.txt', content: Buffer.from('inline').toString('base64') }],
          attachmentIds: [pdf.id, pdf.id.toUpperCase()],
        }).expect(201)
      ).body;
      await waitForStatus(t.http, userId, message.id, 'sent');

      const [mail] = sink.acceptedFor(message.id);
      expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType, a.content.toString()])).toEqual([
        ['inline.txt', 'text/plain', 'inline'],
        ['stored.pdf', 'application/pdf', '%PDF-1.4 stored'],
      ]);
    });

    it("treats another user's attachment exactly as an unknown one", async () => {
      const owner = newUserId();
      const intruder = newUserId();
      const theirs = (await upload(owner, Buffer.from('secret'), 'secret.txt').expect(201)).body.id;
      const unknown = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

      const foreign = await send(intruder, { attachmentIds: [theirs] }).expect(400);
      const missing = await send(intruder, { attachmentIds: [unknown] }).expect(400);

      expect(foreign.body.errors).toEqual([{ field: 'attachmentIds[0]', message: `no attachment ${theirs} exists` }]);
      expect(missing.body.errors).toEqual([{ field: 'attachmentIds[0]', message: `no attachment ${unknown} exists` }]);
      expect(await rowsOwnedBy(t.db, intruder)).toMatchObject({ messages: 0, attachments: 0 });
    });

    it('counts stored bytes with inline bytes toward MAX_ATTACHMENT_BYTES', async () => {
      const userId = newUserId();
      const stored = (await upload(userId, Buffer.alloc(LIMIT - 3)).expect(201)).body.id;
      await send(userId, {
        attachmentIds: [stored],
        attachments: [{ fileName: 'a.bin', content: Buffer.alloc(3).toString('base64') }],
      }).expect(201);

      const res = await send(userId, {
        attachmentIds: [stored],
        attachments: [{ fileName: 'a.bin', content: Buffer.alloc(4).toString('base64') }],
      }).expect(413);

      expectProblem(res.body, 413);
      expect((await rowsOwnedBy(t.db, userId)).messages).toBe(1);
    });
  });
});
