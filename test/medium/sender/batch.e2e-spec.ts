// POST /sender/send/batch (docs/api.md#sending): every message validated first, all stored in one transaction
// or none, the answer in the order sent.
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { batchOf, deliveryJobsOf, sendBatch } from '../../support/batch/batch-support';

const MAX_ATTACHMENT_BYTES = 1000;

describe('POST /sender/send/batch', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '100000', MAX_ATTACHMENT_BYTES: String(MAX_ATTACHMENT_BYTES) });
  });
  afterAll(() => t?.close());

  const expectNothingStored = async (userId: string) => {
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    expect(await deliveryJobsOf(t.db, userId)).toBe(0);
  };

  describe('accepted', () => {
    it('stores 100 messages, each queued for delivery, and answers them in the order sent', async () => {
      const userId = newUserId();
      const messages = batchOf(100);

      const response = await sendBatch(t.http, userId, messages).expect(201);

      expect(response.body.messages).toHaveLength(100);
      expect(response.body.messages.map((m: { subject: string }) => m.subject)).toEqual(messages.map((m) => m.subject));
      expect(response.body.messages.map((m: { to: string[] }) => m.to)).toEqual(messages.map((m) => m.to));
      for (const message of response.body.messages)
        expect(message).toMatchObject({ status: 'queued', userId, sender: 'billing@example.com' });
      expect(new Set(response.body.messages.map((m: { id: string }) => m.id)).size).toBe(100);
      expect(await rowsOwnedBy(t.db, userId)).toMatchObject({
        senders: 1,
        messages: 100,
        recipients: 100,
        events: 100,
      });
      expect(await deliveryJobsOf(t.db, userId)).toBe(100);
    });

    it('takes 100 messages each at the recipient and customPayload limits (over 10,000 values in all)', async () => {
      const userId = newUserId();
      const wide = (i: number) =>
        sendBody({
          subject: `Wide ${i}`,
          to: Array.from({ length: 30 }, (_, r) => `to${r}.${i}@example.com`),
          cc: Array.from({ length: 10 }, (_, r) => `cc${r}.${i}@example.com`),
          bcc: Array.from({ length: 10 }, (_, r) => `bcc${r}.${i}@example.com`),
          customPayload: Object.fromEntries(Array.from({ length: 50 }, (_, k) => [`key${k}`, `value ${k}`])),
        });

      const response = await sendBatch(
        t.http,
        userId,
        Array.from({ length: 100 }, (_, i) => wide(i)),
      ).expect(201);

      expect(response.body.messages).toHaveLength(100);
      expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 100, recipients: 100 * 50 });
    });

    it('answers each message as GET /user/messages/{id} shows it', async () => {
      const userId = newUserId();
      const messages = [
        sendBody({ priority: 'low', customPayload: { order: '1' } }),
        sendBody({
          subject: 'Second',
          bulkSendingId: 'spring',
          contactId: 'c-2',
          attachments: [{ fileName: 'a.txt', content: 'aGk=' }],
        }),
      ];

      const { body } = await sendBatch(t.http, userId, messages).expect(201);

      expect(Object.keys(body)).toEqual(['messages']);
      for (const message of body.messages) {
        const { body: shown } = await t.http.get(`/user/messages/${message.id}`).set(bearer(userId)).expect(200);
        const { statusHistory: _, ...withoutHistory } = shown;
        expect(withoutHistory).toEqual(message);
      }
      expect(body.messages[0]).toMatchObject({ priority: 'low', customPayload: { order: '1' } });
      expect(body.messages[1]).toMatchObject({
        subject: 'Second',
        bulkSendingId: 'spring',
        contactId: 'c-2',
        priority: 'normal',
      });
      expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 2, attachments: 1 });
    });

    it('takes a batch of one', async () => {
      const userId = newUserId();

      const { body } = await sendBatch(t.http, userId, [sendBody()]).expect(201);

      expect(body.messages).toEqual([expect.objectContaining({ status: 'queued', to: ['ada@example.com'] })]);
      expect(await deliveryJobsOf(t.db, userId)).toBe(1);
    });

    it('takes stored attachments by id in any message', async () => {
      const userId = newUserId();
      const { body: file } = await t.http
        .post('/attachments')
        .set(bearer(userId))
        .attach('file', Buffer.from('report'), 'report.txt')
        .expect(201);

      const { body } = await sendBatch(t.http, userId, [sendBody(), sendBody({ attachmentIds: [file.id] })]).expect(
        201,
      );

      expect(body.messages).toHaveLength(2);
      expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 2, attachments: 1, storedAttachments: 1 });
    });
  });

  describe('refused whole, with nothing stored', () => {
    it.each([
      ['no messages', []],
      ['101 messages', batchOf(101)],
      ['not an array', sendBody()],
      ['absent', undefined],
    ])('refuses %s with 400 naming messages', async (_, messages) => {
      const userId = newUserId();

      const response = await sendBatch(t.http, userId, messages).expect(400);

      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual(['messages']);
      await expectNothingStored(userId);
    });

    it('names every failing field of every message as messages[i].<field>, however many are valid', async () => {
      const userId = newUserId();
      const messages = batchOf(5);
      messages[1] = sendBody({ subject: '' });
      messages[3] = sendBody({ to: ['not an address'], priority: 'urgent' });
      const { html: _, ...withoutHtml } = sendBody();
      messages[4] = withoutHtml;

      const response = await sendBatch(t.http, userId, messages).expect(400);

      // A bad address in `to` is named by the array, as the single send names it (seed behaviour).
      const fields = response.body.errors.map((e: { field: string }) => e.field);
      expect(fields.sort()).toEqual(
        ['messages[1].subject', 'messages[3].priority', 'messages[3].to', 'messages[4].html'].sort(),
      );
      // Neither html nor text (docs/api.md#sending: one of them is required).
      expect(response.body.errors.find((e: { field: string }) => e.field === 'messages[4].html').message).toBe(
        'is required when text is absent (give either or both)',
      );
      await expectNothingStored(userId);
    });

    it('refuses unknown fields inside a message and beside messages, including names every object has', async () => {
      const userId = newUserId();
      const raw = `{"messages":[${JSON.stringify(sendBody())},${JSON.stringify(sendBody()).slice(0, -1)},"cc2":["x@example.com"],"toString":"x","webhook":{"url":"https://hooks.example.com/","hasOwnProperty":1}}],"extra":1}`;

      const response = await t.http
        .post('/sender/send/batch')
        .set(bearer(userId))
        .set('Content-Type', 'application/json')
        .send(raw)
        .expect(400);

      expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        ['extra', 'messages[1].cc2', 'messages[1].toString', 'messages[1].webhook.hasOwnProperty'].sort(),
      );
      for (const error of response.body.errors) expect(error.message).toBe('is not a field of this request');
      await expectNothingStored(userId);
    });

    it('refuses a message that is not an object', async () => {
      const userId = newUserId();

      const response = await sendBatch(t.http, userId, [sendBody(), 'a string', null]).expect(400);

      expect(response.body.errors.map((e: { field: string }) => e.field)).toContain('messages');
      await expectNothingStored(userId);
    });

    it('refuses an unknown stored attachment in the last message, naming it', async () => {
      const userId = newUserId();
      const unknown = '0190f3a4-7b1c-7e2a-9d4e-5f6a7b8c9d0e';

      const response = await sendBatch(t.http, userId, [...batchOf(99), sendBody({ attachmentIds: [unknown] })]).expect(
        400,
      );

      expect(response.body.errors).toEqual([
        { field: 'messages[99].attachmentIds[0]', message: `no attachment ${unknown} exists` },
      ]);
      await expectNothingStored(userId);
    });

    it('refuses a webhook on a private address in any message, naming it', async () => {
      const userId = newUserId();

      const response = await sendBatch(t.http, userId, [
        sendBody(),
        sendBody({ webhook: { url: 'http://127.0.0.1/hook' } }),
      ]).expect(400);

      expect(response.body.errors).toEqual([
        { field: 'messages[1].webhook.url', message: expect.stringContaining('private') },
      ]);
      await expectNothingStored(userId);
    });

    it('refuses with 413 when one message has more attachment bytes than MAX_ATTACHMENT_BYTES, and takes the maximum', async () => {
      const userId = newUserId();
      const attachment = (bytes: number) => ({ fileName: 'a.bin', content: Buffer.alloc(bytes, 1).toString('base64') });

      const response = await sendBatch(t.http, userId, [
        sendBody(),
        sendBody({ attachments: [attachment(MAX_ATTACHMENT_BYTES + 1)] }),
      ]).expect(413);

      expect(response.body.detail).toMatch(/^messages\[1\]: /);
      await expectNothingStored(userId);
      await sendBatch(t.http, userId, [
        sendBody(),
        sendBody({ attachments: [attachment(MAX_ATTACHMENT_BYTES)] }),
      ]).expect(201);
    });

    it('answers 400, not 413, when one message has a field error and another too many attachment bytes', async () => {
      const userId = newUserId();
      const attachment = { fileName: 'a.bin', content: Buffer.alloc(MAX_ATTACHMENT_BYTES + 1, 1).toString('base64') };

      const response = await sendBatch(t.http, userId, [
        sendBody({ attachments: [attachment] }),
        sendBody({ webhook: { url: 'http://127.0.0.1/hook' } }),
      ]).expect(400);

      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual(['messages[1].webhook.url']);
      await expectNothingStored(userId);
    });

    it('refuses a body that is not JSON with 415 and one without a token with 401', async () => {
      const userId = newUserId();

      await t.http
        .post('/sender/send/batch')
        .set(bearer(userId))
        .set('Content-Type', 'text/plain')
        .send('hello')
        .expect(415);
      await t.http
        .post('/sender/send/batch')
        .send({ messages: batchOf(1) })
        .expect(401);
      await expectNothingStored(userId);
    });
  });
});
