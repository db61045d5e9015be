// Text-only sends and inline images (docs/api.md#sending), end to end: sent through the REST API, delivered by
// the real worker to a real SMTP server (smtp-server), and read back by mailparser from the bytes
// that server received. Refusals are 400 problems that store nothing.
import { ParsedMail, simpleParser } from 'mailparser';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { deliveringApp } from '../../support/delivering-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

// A 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const TEXT = 'Your sign-in code is 428 913.\nIt expires in 10 minutes.';
const TEXT_ONLY = { html: undefined, text: TEXT };
const LOGO = 'logo.v2_x-1@example.com';
const INLINE_IMAGE = {
  html: `<p><img src="cid:${LOGO}" alt="Example"></p><p>Hello Ada</p>`,
  attachments: [
    { fileName: 'logo.png', content: PNG.toString('base64'), contentType: 'image/png', contentId: LOGO },
    { fileName: 'invoice.txt', content: Buffer.from('Invoice 1234').toString('base64') },
  ],
};
const image = (contentId: string) => ({ fileName: 'logo.png', content: PNG.toString('base64'), contentId });
// A single-part body ends with the line break that SMTP's DATA puts before its final dot
// (RFC 5321 §4.1.1.4); in a multipart one, that break belongs to the closing boundary.
const SINGLE_PART_TEXT = `${TEXT}\n`;
const FIVE_MIB_TEXT = 'é'.repeat((5 * 1024 * 1024) / 2);
const NEITHER = 'is required when text is absent (give either or both)';

/** Every MIME type of the message, top level first, as the raw bytes declare them (headers of each part). */
const declaredTypes = (raw: Buffer) =>
  [...raw.toString('latin1').matchAll(/^Content-Type: *([^;\r\n]+)/gim)].map((m) => m[1].toLowerCase());

const topType = (mail: ParsedMail) => (mail.headers.get('content-type') as { value: string }).value;

describe('text-only sends and inline images', () => {
  const { t, sink } = deliveringApp();

  const post = (userId: string, body: Record<string, unknown>) =>
    t.http.post('/sender/send').set(bearer(userId)).send(body);

  /** Waits for the message to be sent, and resolves to what the SMTP server received. */
  async function receivedFor(userId: string, messageId: string) {
    // A 5 MiB body's one step (sending → sent) took over 20 s beside a loaded machine's other work.
    await waitForStatus(t.http, userId, messageId, 'sent', 60_000);
    const [mail] = sink.acceptedFor(messageId);
    return mail;
  }

  /** Every user's messages: a refused send must add none. */
  const countMessages = async () => (await t.db.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM messages`))[0].n;

  const delivered = async (userId: string, body: Record<string, unknown>) =>
    receivedFor(userId, (await post(userId, body).expect(201)).body.id);

  /**
   * The inline image as mailparser reads it back, checked whole; the HTML read with its `cid:`
   * links kept (by default mailparser turns them into data: URLs of the parts they name).
   */
  async function expectInlineLogo(raw: Buffer) {
    const parsed = await simpleParser(raw, { keepCidLinks: true });
    const image = parsed.attachments.find((a) => a.filename === 'logo.png')!;
    expect(image).toMatchObject({
      contentType: 'image/png',
      contentDisposition: 'inline',
      cid: LOGO,
      contentId: `<${LOGO}>`,
      related: true,
    });
    expect(image.content).toEqual(PNG);
    expect(parsed.html).toContain(`src="cid:${LOGO}"`);
  }

  describe('text only', () => {
    it('delivers a send without html as one text/plain part: the text exact, no HTML', async () => {
      const mail = await delivered(newUserId(), sendBody(TEXT_ONLY));

      expect(mail.parsed.text).toBe(SINGLE_PART_TEXT);
      expect(mail.parsed.html).toBe(false);
      expect(topType(mail.parsed)).toBe('text/plain');
      expect(declaredTypes(mail.raw)).toEqual(['text/plain']);
    });

    it('with attachments: multipart/mixed of the text and the files, still no HTML', async () => {
      const mail = await delivered(
        newUserId(),
        sendBody({ ...TEXT_ONLY, attachments: [{ fileName: 'a.txt', content: Buffer.from('A').toString('base64') }] }),
      );

      expect(mail.parsed.text).toBe(TEXT);
      expect(mail.parsed.html).toBe(false);
      expect(declaredTypes(mail.raw)).toEqual(['multipart/mixed', 'text/plain', 'text/plain']);
      expect(mail.parsed.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['a.txt', 'A']]);
    });

    it('stores no html and echoes the message as any other', async () => {
      const userId = newUserId();
      const { body } = await post(userId, sendBody({ ...TEXT_ONLY, html: null })).expect(201);

      expect(body).toMatchObject({ subject: 'Your invoice', to: ['ada@example.com'] });
      const [row] = await t.db.query(`SELECT html, text FROM messages WHERE id = $1`, [body.id]);
      expect(row).toEqual({ html: null, text: TEXT });
      expect((await receivedFor(userId, body.id)).parsed.html).toBe(false);
    });

    it('takes text of 5 MiB without html, and refuses one byte more', async () => {
      const userId = newUserId();
      const mail = await delivered(userId, sendBody({ html: undefined, text: FIVE_MIB_TEXT }));
      expect(mail.parsed.text).toBe(FIVE_MIB_TEXT);

      const refusedUser = newUserId();
      const { body } = await post(refusedUser, sendBody({ html: undefined, text: `${FIVE_MIB_TEXT}x` })).expect(400);
      expect(body.errors).toEqual([{ field: 'text', message: 'must be at most 5242880 bytes' }]);
      expect(await rowsOwnedBy(t.db, refusedUser)).toEqual(NOTHING_OWNED);
      // 5 MiB composed, delivered and parsed twice: seconds on a quiet machine, more beside other suites.
    }, 120_000);

    it.each([
      ['neither html nor text', sendBody({ html: undefined }), [{ field: 'html', message: NEITHER }]],
      ['both null', sendBody({ html: null, text: null }), [{ field: 'html', message: NEITHER }]],
      [
        'an empty text without html',
        sendBody({ html: undefined, text: '' }),
        [{ field: 'text', message: 'must not be empty' }],
      ],
    ])('refuses %s with a 400 problem, and stores nothing', async (_, body, errors) => {
      const userId = newUserId();
      const messagesBefore = await countMessages();
      const response = await post(userId, body).expect(400);

      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ status: 400, errors });
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
      expect(await countMessages()).toBe(messagesBefore);
    });
  });

  describe('inline images', () => {
    it('sends an attachment with a contentId inline under that Content-ID, beside the HTML that names it', async () => {
      const mail = await delivered(newUserId(), sendBody(INLINE_IMAGE));

      await expectInlineLogo(mail.raw);
      // The image goes with the HTML in multipart/related; the ordinary file stays an attachment.
      expect(declaredTypes(mail.raw)).toEqual([
        'multipart/mixed',
        'multipart/alternative',
        'text/plain',
        'multipart/related',
        'text/html',
        'image/png',
        'text/plain',
      ]);
      const invoice = mail.parsed.attachments.find((a) => a.filename === 'invoice.txt')!;
      expect(invoice.contentDisposition).toBe('attachment');
      // mailparser leaves related unset, and no cid, for a part outside multipart/related.
      expect([invoice.related, invoice.cid]).toEqual([undefined, undefined]);
      expect(mail.raw.toString('latin1')).toContain(`Content-ID: <${LOGO}>`);
    });

    it('sends any file type inline when it has a contentId, not only images', async () => {
      const pdf = Buffer.from('%PDF-1.4 terms');
      const mail = await delivered(
        newUserId(),
        sendBody({
          html: '<p><a href="cid:terms">Terms</a></p>',
          attachments: [{ fileName: 'terms.pdf', content: pdf.toString('base64'), contentId: 'terms' }],
        }),
      );

      const terms = mail.parsed.attachments.find((a) => a.filename === 'terms.pdf')!;
      expect(terms).toMatchObject({
        contentType: 'application/pdf',
        contentDisposition: 'inline',
        cid: 'terms',
        related: true,
      });
      expect(terms.content).toEqual(pdf);
    });

    it('keeps the contentId with the stored attachment row', async () => {
      const userId = newUserId();
      const { body } = await post(userId, sendBody(INLINE_IMAGE)).expect(201);

      const rows = await t.db.query(
        `SELECT file_name, content_id FROM message_attachments WHERE message_id = $1 ORDER BY position`,
        [body.id],
      );
      expect(rows).toEqual([
        { file_name: 'logo.png', content_id: LOGO },
        { file_name: 'invoice.txt', content_id: null },
      ]);
      await receivedFor(userId, body.id);
    });

    it('takes a contentId of 255 characters, and refuses 256', async () => {
      const longest = `${'a'.repeat(243)}@example.com`;
      const mail = await delivered(
        newUserId(),
        sendBody({ html: `<img src="cid:${longest}">`, attachments: [image(longest)] }),
      );
      expect(mail.parsed.attachments[0].cid).toBe(longest);

      const userId = newUserId();
      const { body } = await post(userId, sendBody({ attachments: [image(`a${longest}`)] })).expect(400);
      expect(body.errors).toEqual([{ field: 'attachments[0].contentId', message: 'must be 1 to 255 characters' }]);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });

    it.each([
      ['angle brackets', '<logo@example.com>'],
      ['a header break', 'logo\r\nX-Injected: 1'],
      ['a space', 'my logo'],
      ['a quote', 'logo"'],
      ['a non-ASCII letter', 'logö'],
    ])('refuses a contentId with %s, and stores nothing', async (_, contentId) => {
      const userId = newUserId();
      const { body } = await post(userId, sendBody({ attachments: [image(contentId)] })).expect(400);

      expect(body.errors).toEqual([
        { field: 'attachments[0].contentId', message: 'must contain only letters, digits and . - _ @' },
      ]);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });

    it('refuses two attachments with the same contentId (letter case aside), and stores nothing', async () => {
      const userId = newUserId();
      const { body } = await post(userId, sendBody({ attachments: [image('logo'), image('Logo')] })).expect(400);

      expect(body.errors).toEqual([{ field: 'attachments[1].contentId', message: 'repeats attachments[0].contentId' }]);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });
  });

  describe('in a batch', () => {
    const postBatch = (userId: string, messages: Record<string, unknown>[]) =>
      t.http.post('/sender/send/batch').set(bearer(userId)).send({ messages });

    it('delivers a text-only message and one with an inline image side by side', async () => {
      const userId = newUserId();
      const { body } = await postBatch(userId, [sendBody(TEXT_ONLY), sendBody(INLINE_IMAGE)]).expect(201);
      const [textOnly, withImage] = await Promise.all(
        body.messages.map((m: { id: string }) => receivedFor(userId, m.id)),
      );

      expect(textOnly.parsed.text).toBe(SINGLE_PART_TEXT);
      expect(textOnly.parsed.html).toBe(false);
      expect(declaredTypes(textOnly.raw)).toEqual(['text/plain']);
      await expectInlineLogo(withImage.raw);
    });

    it('names messages[i] when one has neither html nor text, or a bad contentId, and stores none', async () => {
      const userId = newUserId();
      const { body } = await postBatch(userId, [
        sendBody(TEXT_ONLY),
        sendBody({ html: undefined }),
        sendBody({ attachments: [image('a b')] }),
      ]).expect(400);

      expect(body.errors).toEqual([
        { field: 'messages[1].html', message: NEITHER },
        { field: 'messages[2].attachments[0].contentId', message: 'must contain only letters, digits and . - _ @' },
      ]);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    });
  });

  describe('stored attachments (attachmentIds)', () => {
    it('go as ordinary attachments beside an inline image: they have no contentId', async () => {
      const userId = newUserId();
      const stored = (
        await t.http
          .post('/attachments')
          .set(bearer(userId))
          .attach('file', Buffer.from('%PDF-1.4'), { filename: 'report.pdf', contentType: 'application/pdf' })
          .expect(201)
      ).body;
      const mail = await delivered(userId, sendBody({ ...INLINE_IMAGE, attachmentIds: [stored.id] }));

      await expectInlineLogo(mail.raw);
      const report = mail.parsed.attachments.find((a) => a.filename === 'report.pdf')!;
      expect(report.contentDisposition).toBe('attachment');
      expect([report.related, report.cid]).toEqual([undefined, undefined]);
    });
  });
});
