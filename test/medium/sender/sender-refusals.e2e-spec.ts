// POST /sender/send refusing what docs/api.md#sending does not allow: each field past its limit, bodies too
// large, malformed or undecodable, and no token; nothing is written (the accepted shapes are in
// sender.e2e-spec.ts).
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

describe('POST /sender/send refusals', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ MAX_RECIPIENTS: '3', MAX_ATTACHMENT_BYTES: '1000' });
  });
  afterAll(() => t.close());

  const send = (userId: string, body: unknown) =>
    t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(body as object);

  const long = (n: number) => 'x'.repeat(n);
  const refused: [string, Record<string, unknown>, string][] = [
    ['subject missing', sendBody({ subject: undefined }), 'subject'],
    ['subject empty', sendBody({ subject: '' }), 'subject'],
    ['subject too long', sendBody({ subject: long(999) }), 'subject'],
    ['subject with CR LF', sendBody({ subject: 'Hi\r\nBcc: victim@example.com' }), 'subject'],
    ['subject not a string', sendBody({ subject: 42 }), 'subject'],
    ['subject of spaces alone', sendBody({ subject: '   ' }), 'subject'],
    ['subject of white space alone', sendBody({ subject: '\t\u00a0\u3000' }), 'subject'],
    ['html and text missing', sendBody({ html: undefined }), 'html'],
    ['html null and text missing', sendBody({ html: null }), 'html'],
    ['html missing and text empty', sendBody({ html: undefined, text: '' }), 'text'],
    ['html empty', sendBody({ html: '' }), 'html'],
    ['to missing', sendBody({ to: undefined }), 'to'],
    ['to empty', sendBody({ to: [] }), 'to'],
    // One address as a string is a list of one (issue 33, as Resend takes it); a string that is none is not.
    ['to a string that is no address', sendBody({ to: 'ada' }), 'to'],
    ['to a number', sendBody({ to: 42 }), 'to'],
    ['to with a bad address', sendBody({ to: ['ada@example.com', 'not-an-address'] }), 'to'],
    ['to with a header injection', sendBody({ to: ['ada@example.com\r\nBcc: x@example.com'] }), 'to'],
    ['to with a header injection in a quoted local part', sendBody({ to: ['"a\r\nX-Injected: 1"@example.com'] }), 'to'],
    ['to with a quoted space, which SMTP servers refuse', sendBody({ to: ['"john doe"@example.com'] }), 'to'],
    ['to with a bidi override', sendBody({ to: ['ada@exam\u202eple.com'] }), 'to'],
    ['to over MAX_RECIPIENTS', sendBody({ to: ['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io'] }), 'to'],
    ['sender missing', sendBody({ sender: undefined }), 'sender'],
    ['sender not an address', sendBody({ sender: 'Billing' }), 'sender'],
    [
      'sender two addresses',
      sendBody({ sender: 'Billing <billing@example.com>, Sales <sales@example.com>' }),
      'sender',
    ],
    [
      'sender with a header injection in a quoted local part',
      sendBody({ sender: '"a\r\nX-Injected: 1"@example.com' }),
      'sender',
    ],
    ['sender with a quoted control character', sendBody({ sender: '"bill\u0007ing"@example.com' }), 'sender'],
    ['an unknown field', sendBody({ from: 'x@example.com' }), 'from'],
    ['attachments not an array', sendBody({ attachments: { fileName: 'a', content: '' } }), 'attachments'],
    [
      'more than 20 attachments',
      sendBody({ attachments: Array.from({ length: 21 }, () => ({ fileName: 'a.txt', content: '' })) }),
      'attachments',
    ],
    [
      'an attachment file name with a slash',
      sendBody({ attachments: [{ fileName: '../etc/passwd', content: '' }] }),
      'attachments[0].fileName',
    ],
    [
      'an attachment file name with NUL',
      sendBody({ attachments: [{ fileName: 'a\u0000.txt', content: '' }] }),
      'attachments[0].fileName',
    ],
    [
      'an attachment file name too long',
      sendBody({ attachments: [{ fileName: long(256), content: '' }] }),
      'attachments[0].fileName',
    ],
    [
      'attachment content not base64',
      sendBody({ attachments: [{ fileName: 'a.txt', content: 'not base64!' }] }),
      'attachments[0].content',
    ],
    [
      'attachment content base64url',
      sendBody({ attachments: [{ fileName: 'a.txt', content: '-_-_' }] }),
      'attachments[0].content',
    ],
    [
      'attachment content unpadded',
      sendBody({ attachments: [{ fileName: 'a.txt', content: 'aGk' }] }),
      'attachments[0].content',
    ],
    [
      'an attachment with an unknown field',
      sendBody({ attachments: [{ fileName: 'a.txt', content: '', url: 'x' }] }),
      'attachments[0].url',
    ],
    ['attachmentIds not UUIDs', sendBody({ attachmentIds: ['abc'] }), 'attachmentIds'],
    [
      'an unknown attachment id',
      sendBody({ attachmentIds: ['6f1f2f0d-7a21-4d3e-9c55-8c4f5f1e3b0a'] }),
      'attachmentIds[0]',
    ],
    ['bulkSendingId empty', sendBody({ bulkSendingId: '' }), 'bulkSendingId'],
    ['contactId too long', sendBody({ contactId: long(256) }), 'contactId'],
    ['customPayload an array', sendBody({ customPayload: ['a'] }), 'customPayload'],
    ['customPayload with a number value', sendBody({ customPayload: { a: 1 } }), 'customPayload'],
    ['customPayload with a nested object', sendBody({ customPayload: { a: { b: 'c' } } }), 'customPayload'],
    [
      'customPayload with 51 keys',
      sendBody({ customPayload: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }),
      'customPayload',
    ],
    ['customPayload with a long value', sendBody({ customPayload: { a: long(1001) } }), 'customPayload'],
    ['customPayload with a long key', sendBody({ customPayload: { [long(101)]: 'v' } }), 'customPayload'],
    [
      'customPayload with the key constructor',
      sendBody({ customPayload: { constructor: 'x' } }),
      'customPayload.constructor',
    ],
    [
      'customPayload with the key __proto__',
      JSON.parse('{"subject":"s","html":"h","to":["a@b.io"],"sender":"s@b.io","customPayload":{"__proto__":"x"}}'),
      'customPayload.__proto__',
    ],
    [
      'a nested prototype key',
      sendBody({ webhook: { url: 'https://example.com/h', prototype: 'x' } }),
      'webhook.prototype',
    ],
    ['a NUL in the subject', sendBody({ subject: 'a\u0000b' }), 'subject'],
    ['a NUL in the html', sendBody({ html: '<p>\u0000</p>' }), 'html'],
    ['a NUL in a customPayload value', sendBody({ customPayload: { a: 'x\u0000' } }), 'customPayload.a'],
    ['a NUL in a customPayload key', sendBody({ customPayload: { 'a\u0000': 'x' } }), 'customPayload.a\\0'],
    ['an unknown field named like an object method', sendBody({ hasOwnProperty: 0 }), 'hasOwnProperty'],
    [
      'an unknown webhook field named like an object method',
      sendBody({ webhook: { url: 'https://h.example.com', toString: 'x' } }),
      'webhook.toString',
    ],
    [
      'an unknown attachment field named like an object method',
      sendBody({ attachments: [{ fileName: 'a.txt', content: '', valueOf: 1 }] }),
      'attachments[0].valueOf',
    ],
    ['an unpaired surrogate in the html', sendBody({ html: '<p>\ud800</p>' }), 'html'],
    [
      'an unpaired low surrogate in a customPayload value',
      sendBody({ customPayload: { a: 'x\udc00y' } }),
      'customPayload.a',
    ],
    [
      'an unpaired surrogate in a customPayload key',
      sendBody({ customPayload: { 'a\ud800': 'x' } }),
      'customPayload.a\\ud800',
    ],
    [
      'JSON nested 40 levels deep',
      sendBody({ junk: JSON.parse('['.repeat(40) + ']'.repeat(40)) }),
      'junk' + '[0]'.repeat(31),
    ],
    ['priority unknown', sendBody({ priority: 'urgent' }), 'priority'],
    ['webhook not an object', sendBody({ webhook: 'https://example.com' }), 'webhook'],
    ['webhook an array', sendBody({ webhook: [{ url: 'https://example.com/hook' }] }), 'webhook'],
    ['webhook an empty array', sendBody({ webhook: [] }), 'webhook'],
    [
      'attachments holding an array',
      sendBody({ attachments: [[{ fileName: 'a.txt', content: 'aGk=' }]] }),
      'attachments',
    ],
    ['attachments holding a string', sendBody({ attachments: ['aGk='] }), 'attachments'],
    ['webhook url missing', sendBody({ webhook: { status: ['sent'] } }), 'webhook.url'],
    ['webhook url relative', sendBody({ webhook: { url: '/hook' } }), 'webhook.url'],
    ['webhook url not http', sendBody({ webhook: { url: 'ftp://example.com/hook' } }), 'webhook.url'],
    ['webhook url too long', sendBody({ webhook: { url: `https://example.com/${long(2048)}` } }), 'webhook.url'],
    [
      'webhook status unknown',
      sendBody({ webhook: { url: 'https://example.com/h', status: ['delivered'] } }),
      'webhook.status',
    ],
  ];

  it.each(refused)('refuses %s with 400 naming the field, and writes nothing', async (_case, body, field) => {
    const userId = newUserId();
    const response = await send(userId, body).expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      requestId: expect.any(String),
    });
    expect(response.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  it('refuses a body of more than 100,000 values, and a deeply nested one, quickly and without a 500', async () => {
    const userId = newUserId();
    const wide = await send(
      userId,
      sendBody({ to: Array.from({ length: 200_000 }, (_, i) => `user${i}@example.com`) }),
    ).expect(400);
    expect(wide.body.detail).toBe('The body holds more than 100000 values.');
    const deep = '{"x":' + '['.repeat(5000) + ']'.repeat(5000) + '}';
    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .send(deep)
      .expect(400);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 0 });
  });

  it('compares addresses case-insensitively the same way everywhere, beyond ASCII', async () => {
    const userId = newUserId();
    const dotless = await send(
      userId,
      sendBody({ sender: 'i@example.com', to: ['i@example.com', 'İ@example.com'] }),
    ).expect(201);
    const dotted = await send(userId, sendBody({ sender: 'İ@example.com' })).expect(201);
    expect(dotless.body.to).toEqual(['i@example.com', 'İ@example.com']);
    expect(dotted.body.senderId).not.toBe(dotless.body.senderId);
    const again = await send(userId, sendBody({ sender: 'İ@EXAMPLE.COM' })).expect(201);
    expect(again.body.senderId).toBe(dotted.body.senderId);
    const listed = await t.http
      .get('/user/messages')
      .query({ toEmail: 'İ@example.com' })
      .set(bearer(userId))
      .expect(200);
    expect(listed.body.messages.map((m: { id: string }) => m.id)).toEqual([dotless.body.id]);
  });

  it('lists every failing field at once', async () => {
    const response = await send(newUserId(), { subject: '', to: ['x'], priority: 'urgent' }).expect(400);
    const fields = response.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(['html', 'priority', 'sender', 'subject', 'to']);
    expect(response.body.errors).toContainEqual({
      field: 'html',
      message: 'is required when text is absent (give either or both)',
    });
  });

  it('refuses attachments that decode to more than MAX_ATTACHMENT_BYTES with 413, and writes nothing', async () => {
    const userId = newUserId();
    const content = Buffer.alloc(600).toString('base64');
    const response = await send(
      userId,
      sendBody({
        attachments: [
          { fileName: 'a.bin', content },
          { fileName: 'b.bin', content },
        ],
      }),
    ).expect(413);
    expect(response.body).toMatchObject({ status: 413, title: 'Payload Too Large' });
    expect(response.body.detail).toContain('1200 bytes');
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    await send(
      userId,
      sendBody({ attachments: [{ fileName: 'a.bin', content: Buffer.alloc(1000).toString('base64') }] }),
    ).expect(201);
  });

  it('answers 413 to a JSON body over 20 MiB', async () => {
    const userId = newUserId();
    const response = await send(userId, sendBody({ html: 'x'.repeat(20 * 1024 * 1024 + 1) })).expect(413);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 0 });
  });

  it('refuses html over 5 MiB with 400', async () => {
    const response = await send(newUserId(), sendBody({ html: 'é'.repeat(2.5 * 1024 * 1024 + 1) })).expect(400);
    expect(response.body.errors).toEqual([{ field: 'html', message: 'must be at most 5242880 bytes' }]);
  });

  it('answers 415 to a body that is not JSON, and 400 to malformed JSON or JSON that is not an object', async () => {
    const userId = newUserId();
    const form = await t.http.post('/sender/send').set(bearer(userId)).type('form').send('subject=hi').expect(415);
    expect(form.body.status).toBe(415);
    await t.http.post('/sender/send').set(bearer(userId)).set('Content-Type', 'text/plain').send('{}').expect(415);
    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .send('{"subject": ')
      .expect(400);
    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .send('[1, 2]')
      .expect(400);
    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .send('"text"')
      .expect(400);
    const empty = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .expect(400);
    expect(empty.body.errors).toContainEqual({ field: 'subject', message: 'is required' });
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 0 });
  });

  it('answers a body it cannot decode with 4xx, never 500', async () => {
    const userId = newUserId();
    const gzip = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(JSON.stringify(sendBody()))
      .expect(400);
    expect(gzip.body.detail).toBe('The body could not be read.');
    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'compress')
      .send('{}')
      .expect(415);
    await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json; charset=utf-16')
      .send('{}')
      .expect(415);
    const malformed = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .set('Content-Type', 'application/json')
      .send('{"subject": nope}')
      .expect(400);
    expect(malformed.body.detail).toBe('The body is not valid JSON.');
  });

  it('needs a token before it reads the body at all', async () => {
    for (const body of [
      JSON.stringify(sendBody()),
      '{bad',
      JSON.stringify(sendBody({ html: 'x'.repeat(21 * 1024 * 1024) })),
    ]) {
      const response = await t.http.post('/sender/send').set('Content-Type', 'application/json').send(body).expect(401);
      expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    }
  });
});
