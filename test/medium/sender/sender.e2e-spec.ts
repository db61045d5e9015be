import { rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('POST /sender/send', () => {
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

  it('accepts many concurrent sends from new sender addresses, in any order, each once', async () => {
    const userId = newUserId();
    const senders = Array.from({ length: 8 }, (_, i) => `sender${i}@example.com`);
    // Sends share transactions (MessageIntake's group commit): batches naming the same new senders in other
    // orders must not deadlock each other.
    const bodies = Array.from({ length: 120 }, (_, i) =>
      sendBody({ sender: senders[(i * 5 + Math.floor(i / 8)) % 8], subject: `Concurrent ${i}` }),
    );

    const responses = await Promise.all(bodies.map((body) => send(userId, body)));

    expect(responses.map((r) => r.status)).toEqual(bodies.map(() => 201));
    expect(new Set(responses.map((r) => r.body.id)).size).toBe(120);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ senders: 8, messages: 120, recipients: 120, events: 120 });
  });

  it('stores the message as queued and answers 201 with the Message and its Location', async () => {
    const userId = newUserId();
    const before = Date.now();
    const response = await send(
      userId,
      sendBody({
        to: ['Ada@Example.com', 'grace@example.com', 'ada@example.COM'],
        sender: 'Billing@Example.com',
        bulkSendingId: 'march',
        contactId: 'contact-1',
        priority: 'high',
        customPayload: { orderId: '1234', toString: 'kept' },
        webhook: { url: 'https://hooks.example.com/mailroom', status: ['sent'] },
        attachments: [{ fileName: 'invoice.pdf', content: b64('%PDF-1.4 fake') }],
      }),
    ).expect(201);

    const message = response.body;
    expect(message).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      to: ['Ada@Example.com', 'grace@example.com'],
      subject: 'Your invoice',
      senderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: 'queued',
      userId,
      sentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      sender: 'Billing@Example.com',
      bulkSendingId: 'march',
      contactId: 'contact-1',
      priority: 'high',
      customPayload: { orderId: '1234', toString: 'kept' },
      cc: null,
      bcc: null,
      replyTo: null,
      scheduledAt: null,
      nextAttemptAt: null,
      // One per distinct recipient, the address part as given (docs/delivery-and-deliverability.md#statuses "Recipients").
      recipients: [
        { email: 'Ada@Example.com', type: 'to', status: 'pending', detail: null, at: message.sentAt, route: null },
        { email: 'grace@example.com', type: 'to', status: 'pending', detail: null, at: message.sentAt, route: null },
      ],
    });
    expect(Date.parse(message.sentAt)).toBeGreaterThanOrEqual(before - 1);
    expect(response.headers.location).toBe(`/user/messages/${message.id}`);

    const [stored] = await t.db.query(`SELECT * FROM messages WHERE id = $1`, [message.id]);
    expect(stored).toMatchObject({
      user_id: userId,
      html: '<p>Hello Ada</p>',
      status: 'queued',
      webhook_url: 'https://hooks.example.com/mailroom',
      webhook_statuses: ['sent'],
    });
    const recipients = await t.db.query(`SELECT email FROM message_recipients WHERE message_id = $1 ORDER BY email`, [
      message.id,
    ]);
    expect(recipients.map((r: { email: string }) => r.email)).toEqual(['ada@example.com', 'grace@example.com']);
    const history = await t.db.query(`SELECT status, at FROM message_status_events WHERE message_id = $1`, [
      message.id,
    ]);
    expect(history).toEqual([{ status: 'queued', at: new Date(message.sentAt) }]);
    const [attachment] = await t.db.query(
      `SELECT file_name, content_type, size, content FROM message_attachments WHERE message_id = $1`,
      [message.id],
    );
    expect(attachment).toEqual({
      file_name: 'invoice.pdf',
      content_type: 'application/pdf',
      size: 13,
      content: Buffer.from('%PDF-1.4 fake'),
    });
  });

  it('defaults priority to normal and the optional fields to null; an empty webhook status list means every status', async () => {
    const userId = newUserId();
    const { body } = await send(userId, sendBody({ webhook: { url: 'http://localhost:9/hook' } })).expect(201);
    expect(body).toMatchObject({ priority: 'normal', bulkSendingId: null, contactId: null, customPayload: null });
    const [stored] = await t.db.query(`SELECT webhook_statuses FROM messages WHERE id = $1`, [body.id]);
    expect(stored.webhook_statuses).toEqual([]);
  });

  it('gives one senderId per user and address, whatever the letter case, and another to another user', async () => {
    const alice = newUserId('alice');
    const bob = newUserId('bob');
    const first = await send(alice, sendBody({ sender: 'news@example.com' })).expect(201);
    const again = await send(alice, sendBody({ sender: 'NEWS@example.com' })).expect(201);
    const other = await send(alice, sendBody({ sender: 'billing@example.com' })).expect(201);
    const bobs = await send(bob, sendBody({ sender: 'news@example.com' })).expect(201);
    expect(again.body.senderId).toBe(first.body.senderId);
    expect(other.body.senderId).not.toBe(first.body.senderId);
    expect(bobs.body.senderId).not.toBe(first.body.senderId);
    expect(await rowsOwnedBy(t.db, alice)).toMatchObject({ senders: 2, messages: 3 });
  });

  it('drops duplicate recipients before counting them against MAX_RECIPIENTS', async () => {
    const to = ['a@example.com', 'b@example.com', 'c@example.com', 'A@EXAMPLE.COM'];
    const { body } = await send(newUserId(), sendBody({ to })).expect(201);
    expect(body.to).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
  });

  it('takes one address as a string in to, cc, bcc and replyTo, as Resend does, in a send and in a batch', async () => {
    const userId = newUserId();
    const { body } = await send(
      userId,
      sendBody({
        to: 'Ada <ada@example.com>',
        cc: 'grace@example.com',
        bcc: 'ADA@example.com',
        replyTo: 'help@example.com',
      }),
    ).expect(201);
    expect(body).toMatchObject({
      to: ['Ada <ada@example.com>'],
      cc: ['grace@example.com'],
      bcc: [],
      replyTo: ['help@example.com'],
    });
    expect(body.recipients.map((r: { email: string }) => r.email)).toEqual(['ada@example.com', 'grace@example.com']);

    // MAX_RECIPIENTS is 3 here: a string is one recipient like any entry, at the limit and one past.
    const batch = await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .send({ messages: [sendBody({ to: 'a@example.com', cc: ['b@example.com', 'c@example.com'] })] })
      .expect(201);
    expect(batch.body.messages[0].to).toEqual(['a@example.com']);
    const refused = await t.http
      .post('/sender/send/batch')
      .set(bearer(userId))
      .send({
        messages: [sendBody({ to: 'a@example.com', cc: ['b@example.com', 'c@example.com'], bcc: 'd@example.com' })],
      })
      .expect(400);
    expect(refused.body.errors.map((e: { field: string }) => e.field)).toEqual(['messages[0].to']);

    const { body: document } = await t.http.get('/docs-json').expect(200);
    const schema = document.components.schemas.SendMessageDto.properties;
    for (const field of ['to', 'cc', 'bcc', 'replyTo'])
      expect(schema[field].oneOf.map((s: { type: string }) => s.type)).toEqual(['string', 'array']);
  });
});
