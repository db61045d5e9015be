// Every limit of POST /sender/send (docs/api.md#sending) and GET /user/messages (docs/api.md#routes) at its maximum and
// one past it, with the defaults of docs/configuration.md: the maximum is accepted, one past is a 400 naming
// the field (413 for attachment bytes), never a 500, and a refusal writes nothing.
import { MAX_PAGE } from '../../../src/platform/paging';
import { MESSAGE_STATUSES } from '../../../src/messages/message-status';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const MAX_RECIPIENTS = 50;
const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
const MAX_HTML_BYTES = 5 * 1024 * 1024;

const text = (length: number, unit = 'x') => unit.repeat(length);
const recipients = (n: number) => Array.from({ length: n }, (_, i) => `recipient${i}@example.com`);
const payload = (keys: number, keyLength: number, valueLength: number) =>
  Object.fromEntries(
    Array.from({ length: keys }, (_, i) => [String(i).padStart(keyLength, 'k'), text(valueLength, 'v')]),
  );
const webhookUrl = (length: number) =>
  `https://hooks.example.com/${text(length - 'https://hooks.example.com/'.length, 'p')}`;
// Distinct files: the first carries what the other nineteen leave of MAX_ATTACHMENT_BYTES.
const attachmentBytes = (i: number) => Buffer.alloc(i === 0 ? MAX_ATTACHMENT_BYTES - 19 * 1000 : 1000, i);
// 64 characters before the @, 254 in all (RFC 5321).
const LONGEST_ADDRESS = `${text(64, 'a')}@${text(63, 'b')}.${text(63, 'c')}.${text(57, 'd')}.com`;

/** Every field at once at its largest: 998 astral characters, 5 MiB of html, 50 recipients, 20 attachments of 10 MiB in all. */
function largestBody(): Record<string, unknown> {
  return {
    subject: text(998, '😀'),
    html: text(MAX_HTML_BYTES / 2, 'é'),
    to: recipients(MAX_RECIPIENTS),
    sender: LONGEST_ADDRESS,
    attachments: Array.from({ length: 20 }, (_, i) => ({
      fileName: `${text(251, String.fromCharCode(97 + i))}.bin`,
      content: attachmentBytes(i).toString('base64'),
    })),
    bulkSendingId: text(255, 'b'),
    contactId: text(255, '𝒸'),
    customPayload: payload(50, 100, 1000),
    priority: 'high',
    webhook: { url: webhookUrl(2048), status: [...MESSAGE_STATUSES] },
  };
}

describe('limits of POST /sender/send and GET /user/messages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    expect(t.config.limits).toMatchObject({ maxRecipients: MAX_RECIPIENTS, maxAttachmentBytes: MAX_ATTACHMENT_BYTES });
  });
  afterAll(() => t.close());

  const send = (userId: string, body: unknown, idempotencyKey?: string) => {
    const pending = t.http.post('/sender/send').set(bearer(userId));
    if (idempotencyKey !== undefined) pending.set('Idempotency-Key', idempotencyKey);
    return pending.send(body as object);
  };

  it('accepts every field at its maximum at once, and stores all of it', async () => {
    const userId = newUserId();
    const body = largestBody();
    expect(Buffer.byteLength(JSON.stringify(body))).toBeLessThan(20 * 1024 * 1024);

    const { body: message } = await send(userId, body, text(255, 'K')).expect(201);

    expect(message).toMatchObject({
      subject: body.subject,
      to: body.to,
      sender: LONGEST_ADDRESS,
      bulkSendingId: body.bulkSendingId,
      contactId: body.contactId,
    });
    expect(message.customPayload).toEqual(body.customPayload);
    const [stored] = await t.db.query(`SELECT html, webhook_url FROM messages WHERE id = $1`, [message.id]);
    expect(stored).toEqual({ html: body.html, webhook_url: webhookUrl(2048) });
    const files: { file_name: string; content: Buffer }[] = await t.db.query(
      `SELECT file_name, content FROM message_attachments WHERE message_id = $1 ORDER BY file_name`,
      [message.id],
    );
    expect(files.map((f) => f.file_name)).toEqual((body.attachments as { fileName: string }[]).map((a) => a.fileName));
    files.forEach((file, i) => expect(file.content.equals(attachmentBytes(i))).toBe(true));
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({
      messages: 1,
      recipients: MAX_RECIPIENTS,
      attachments: 20,
      idempotencyKeys: 1,
    });
  });

  it('accepts 20 stored attachment ids and refuses 21', async () => {
    const userId = newUserId();
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) {
      ids.push(
        (
          await t.http
            .post('/attachments')
            .set(bearer(userId))
            .attach('file', Buffer.from(`file ${i}`), `f${i}.txt`)
            .expect(201)
        ).body.id,
      );
    }
    await send(userId, sendBody({ attachmentIds: ids.slice(0, 20) })).expect(201);
    const refused = await send(userId, sendBody({ attachmentIds: ids })).expect(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['attachmentIds']);
  });

  const onePast: [string, Record<string, unknown>, string][] = [
    ['a subject of 999 characters', { subject: text(999, '😀') }, 'subject'],
    ['html of 5 MiB and one byte', { html: `${text(MAX_HTML_BYTES / 2, 'é')}x` }, 'html'],
    ['51 recipients', { to: recipients(MAX_RECIPIENTS + 1) }, 'to'],
    ['a sender of 255 characters', { sender: `a${LONGEST_ADDRESS}` }, 'sender'],
    [
      '21 attachments',
      { attachments: Array.from({ length: 21 }, () => ({ fileName: 'a.txt', content: 'YQ==' })) },
      'attachments',
    ],
    [
      'a file name of 256 characters',
      { attachments: [{ fileName: `${text(252, 'f')}.txt`, content: 'YQ==' }] },
      'attachments[0].fileName',
    ],
    ['a bulkSendingId of 256 characters', { bulkSendingId: text(256, 'b') }, 'bulkSendingId'],
    ['a contactId of 256 characters', { contactId: text(256, '𝒸') }, 'contactId'],
    ['51 customPayload keys', { customPayload: payload(51, 100, 1000) }, 'customPayload'],
    ['a customPayload key of 101 characters', { customPayload: payload(50, 101, 1000) }, 'customPayload'],
    ['a customPayload value of 1,001 characters', { customPayload: payload(50, 100, 1001) }, 'customPayload'],
    ['a webhook url of 2,049 characters', { webhook: { url: webhookUrl(2049) } }, 'webhook.url'],
  ];

  it.each(onePast)('refuses %s with 400 naming the field, and writes nothing', async (_case, overrides, field) => {
    const userId = newUserId();
    const response = await send(userId, sendBody(overrides)).expect(400);
    expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  it('refuses an Idempotency-Key of 256 characters with 400, and writes nothing', async () => {
    const userId = newUserId();
    const response = await send(userId, sendBody(), text(256, 'K')).expect(400);
    expect(response.body.errors).toEqual([{ field: 'Idempotency-Key', message: expect.any(String) }]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  it('refuses attachments of MAX_ATTACHMENT_BYTES and one byte with 413, and writes nothing', async () => {
    const userId = newUserId();
    const attachments = [
      { fileName: 'a.bin', content: Buffer.alloc(MAX_ATTACHMENT_BYTES).toString('base64') },
      { fileName: 'b.bin', content: 'YQ==' },
    ];
    const response = await send(userId, sendBody({ attachments })).expect(413);
    expect(response.body).toMatchObject({
      status: 413,
      detail: expect.stringContaining(`${MAX_ATTACHMENT_BYTES + 1} bytes`),
    });
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  describe('GET /user/messages', () => {
    const list = (query: Record<string, string | number>) =>
      t.http.get('/user/messages').query(query).set(bearer(newUserId()));
    const LAST_DAY = '9999-12-31';

    it.each([
      ['take', 100, 101],
      ['page', MAX_PAGE, MAX_PAGE + 1],
      ['bulkSending', text(255, 'b'), text(256, 'b')],
      ['fromEmail', LONGEST_ADDRESS, `a${LONGEST_ADDRESS}`],
      ['toEmail', LONGEST_ADDRESS, `a${LONGEST_ADDRESS}`],
      ['statuses', MESSAGE_STATUSES.join(','), `${MESSAGE_STATUSES.join(',')},x`],
      ['startDate', `${LAST_DAY}T23:59:59.999Z`, '10000-01-01'],
      ['endDate', LAST_DAY, '+10000-01-01'],
    ])('answers %s at its maximum and refuses one past it with 400', async (name, largest, beyond) => {
      const { body } = await list({ [name]: largest }).expect(200);
      expect(body.messages).toEqual([]);
      const refused = await list({ [name]: beyond }).expect(400);
      expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual([name]);
    });

    it('counts nothing from the last millisecond of 9999 on, whatever was sent before', async () => {
      const userId = newUserId();
      await send(userId, sendBody()).expect(201);
      const { body } = await t.http
        .get('/user/messages')
        .query({ startDate: `${LAST_DAY}T23:59:59.999Z` })
        .set(bearer(userId))
        .expect(200);
      expect(body).toMatchObject({ messages: [], total: 0, totalPages: 0, hasNext: false });
    });
  });
});
