// Mailboxes, cc, bcc, replyTo, text, headers and contentType on the real database (docs/api.md#sending): what
// is stored and answered, how repeats across to, cc and bcc are dropped before MAX_RECIPIENTS
// counts them, how the list filters find cc and bcc recipients, and every new limit at its
// maximum and one past it.
import { MAX_MAILBOX_LENGTH } from '../../../src/platform/validation/mailbox';
import { MAX_HEADER_NAME_LENGTH } from '../../../src/platform/validation/custom-headers';
import { senderIdFor } from '../../../src/messages/addresses';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';

const MAX_RECIPIENTS = 50;
const MAX_TEXT_BYTES = 5 * 1024 * 1024;
const addresses = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}@example.com`);
/** A mailbox of exactly `length` characters: a display name padded before an address. */
const mailboxOf = (length: number) => `${'N'.repeat(length - ' <ada@example.com>'.length)} <ada@example.com>`;
const headersOf = (n: number) =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`X-Custom-${i}`, `value ${i}`]));
/** RFC 6838 allows 127 characters each side of the slash. */
const mimeTypeOf = (length: number) => `${'a'.repeat(127)}/${'b'.repeat(length - 128)}`;

describe('mailboxes, cc, bcc, replyTo, text, headers and contentType', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_MINUTE: '100000' });
    expect(t.config.limits.maxRecipients).toBe(MAX_RECIPIENTS);
  });
  afterAll(() => t.close());

  const send = (userId: string, overrides: Record<string, unknown>) =>
    t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides));
  const fieldsOf = (response: { body: { errors: { field: string }[] } }) => response.body.errors.map((e) => e.field);
  const list = (userId: string, query: Record<string, string>) =>
    t.http.get('/user/messages').query(query).set(bearer(userId)).expect(200);

  it('drops repeated addresses across to, cc and bcc (to first, then cc, then bcc), keeps each as first given, and stores them all', async () => {
    const userId = newUserId();
    const { body: message } = await send(userId, {
      sender: 'Billing Team <Billing@Example.com>',
      to: ['Ada <ada@example.com>', 'ADA@example.com'],
      cc: ['ada@EXAMPLE.com', '"Hopper, Grace" <grace@example.com>', 'grace@example.com'],
      bcc: ['Grace <GRACE@example.com>', 'archive@example.com'],
      replyTo: ['Support <support@example.com>'],
      text: 'Plain',
      headers: { 'X-Campaign': 'march' },
    }).expect(201);

    expect(message).toMatchObject({
      sender: 'Billing Team <Billing@Example.com>',
      senderId: senderIdFor(userId, 'billing@example.com'),
      to: ['Ada <ada@example.com>'],
      cc: ['"Hopper, Grace" <grace@example.com>'],
      bcc: ['archive@example.com'],
      replyTo: ['Support <support@example.com>'],
    });
    const [stored] = await t.db.query(
      `SELECT recipients, cc, bcc, reply_to, text, headers FROM messages WHERE id = $1`,
      [message.id],
    );
    expect(stored).toEqual({
      recipients: ['Ada <ada@example.com>'],
      cc: ['"Hopper, Grace" <grace@example.com>'],
      bcc: ['archive@example.com'],
      reply_to: ['Support <support@example.com>'],
      text: 'Plain',
      headers: { 'X-Campaign': 'march' },
    });
    const rows: { email: string }[] = await t.db.query(
      `SELECT email FROM message_recipients WHERE message_id = $1 ORDER BY email`,
      [message.id],
    );
    expect(rows.map((r) => r.email)).toEqual(['ada@example.com', 'archive@example.com', 'grace@example.com']);
    const { body: read } = await t.http.get(`/user/messages/${message.id}`).set(bearer(userId)).expect(200);
    expect(read).toMatchObject({
      to: message.to,
      cc: message.cc,
      bcc: message.bcc,
      replyTo: message.replyTo,
      sender: message.sender,
    });
  });

  it('gives a named sender the senderId of its address, and finds its messages by fromEmail and by any to, cc or bcc recipient', async () => {
    const userId = newUserId();
    const named = (
      await send(userId, {
        sender: 'Ada <ada@example.com>',
        to: ['to@example.com'],
        cc: ['Cc <cc@example.com>'],
      }).expect(201)
    ).body;
    const bare = (
      await send(userId, { sender: 'ada@example.com', to: ['other@example.com'], bcc: ['BCC@example.com'] }).expect(201)
    ).body;
    expect(named.senderId).toBe(bare.senderId);

    const ids = async (query: Record<string, string>) => {
      const { body } = await list(userId, query);
      return { ids: body.messages.map((m: { id: string }) => m.id), total: body.total };
    };
    expect(await ids({ fromEmail: 'ADA@example.com' })).toEqual({ ids: [bare.id, named.id], total: 2 });
    expect(await ids({ toEmail: 'cc@example.com' })).toEqual({ ids: [named.id], total: 1 });
    expect(await ids({ toEmail: 'bcc@example.com' })).toEqual({ ids: [bare.id], total: 1 });
    expect(await ids({ toEmail: 'to@example.com' })).toEqual({ ids: [named.id], total: 1 });
    // The same filters with a date range: counted over the rows instead of the kept counts.
    expect(await ids({ toEmail: 'bcc@example.com', startDate: '2000-01-01' })).toEqual({ ids: [bare.id], total: 1 });
  });

  it('accepts MAX_RECIPIENTS across to, cc and bcc, also when repeats bring the entries past it, and refuses one more', async () => {
    const userId = newUserId();
    const atLimit = { to: addresses(20, 'to'), cc: addresses(20, 'cc'), bcc: addresses(10, 'bcc') };
    await send(userId, atLimit).expect(201);
    const withRepeats = {
      ...atLimit,
      cc: [...atLimit.cc, 'TO0@example.com'],
      bcc: [...atLimit.bcc, 'cc3@EXAMPLE.com', 'Again <bcc1@example.com>'],
    };
    const { body } = await send(userId, withRepeats).expect(201);
    expect([body.to.length, body.cc.length, body.bcc.length]).toEqual([20, 20, 10]);
    expect(await rowsOwnedBy(t.db, userId)).toMatchObject({ messages: 2, recipients: 2 * MAX_RECIPIENTS });

    const other = newUserId();
    const onePast = await send(other, { ...atLimit, bcc: addresses(11, 'bcc') }).expect(400);
    expect(onePast.body.errors).toEqual([
      { field: 'to', message: `must have at most ${MAX_RECIPIENTS} distinct recipients across to, cc and bcc` },
    ]);
    expect(await rowsOwnedBy(t.db, other)).toEqual(NOTHING_OWNED);
  });

  it.each([
    ['From'],
    ['to'],
    ['CC'],
    ['bcc'],
    ['Reply-To'],
    ['subject'],
    ['Date'],
    ['message-id'],
    ['MIME-Version'],
    ['Content-Type'],
    ['content-transfer-encoding'],
    ['DKIM-Signature'],
    ['Return-Path'],
    ['Received'],
    ['List-Unsubscribe'],
    ['list-unsubscribe-post'],
  ])('refuses the reserved header %s with 400 naming it, and stores nothing', async (name) => {
    const userId = newUserId();
    const response = await send(userId, { headers: { 'X-Fine': 'yes', [name]: 'mine' } }).expect(400);
    expect(response.body.errors).toEqual([
      { field: `headers.${name}`, message: 'is a header the service writes itself' },
    ]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  const largest: [string, Record<string, unknown>][] = [
    ['a sender mailbox', { sender: mailboxOf(MAX_MAILBOX_LENGTH) }],
    ['a to mailbox', { to: [mailboxOf(MAX_MAILBOX_LENGTH)] }],
    ['a cc mailbox', { cc: [mailboxOf(MAX_MAILBOX_LENGTH)] }],
    ['a bcc mailbox', { bcc: [mailboxOf(MAX_MAILBOX_LENGTH)] }],
    ['10 replyTo', { replyTo: addresses(9, 'reply').concat(mailboxOf(MAX_MAILBOX_LENGTH)) }],
    ['a text of 5 MiB', { text: 'é'.repeat(MAX_TEXT_BYTES / 2) }],
    ['20 headers', { headers: headersOf(20) }],
    ['a header name', { headers: { [`X-${'n'.repeat(MAX_HEADER_NAME_LENGTH - 2)}`]: 'v' } }],
    ['a header value', { headers: { 'X-Long': '😀'.repeat(998) } }],
    ['a contentType', { attachments: [{ fileName: 'a.bin', content: 'YQ==', contentType: mimeTypeOf(255) }] }],
  ];

  it.each(largest)('accepts %s at its maximum', async (_case, overrides) => {
    await send(newUserId(), overrides).expect(201);
  });

  const onePast: [string, Record<string, unknown>, string][] = [
    ['a sender mailbox', { sender: mailboxOf(MAX_MAILBOX_LENGTH + 1) }, 'sender'],
    ['a to mailbox', { to: [mailboxOf(MAX_MAILBOX_LENGTH + 1)] }, 'to'],
    ['a cc mailbox', { cc: ['fine@example.com', 'fine2@example.com', mailboxOf(MAX_MAILBOX_LENGTH + 1)] }, 'cc[2]'],
    ['a bcc mailbox', { bcc: [mailboxOf(MAX_MAILBOX_LENGTH + 1)] }, 'bcc[0]'],
    ['11 replyTo', { replyTo: addresses(11, 'reply') }, 'replyTo'],
    ['a replyTo mailbox', { replyTo: [mailboxOf(MAX_MAILBOX_LENGTH + 1)] }, 'replyTo[0]'],
    ['a text of 5 MiB and one byte', { text: `${'é'.repeat(MAX_TEXT_BYTES / 2)}x` }, 'text'],
    ['21 headers', { headers: headersOf(21) }, 'headers'],
    [
      'a header name',
      { headers: { [`X-${'n'.repeat(MAX_HEADER_NAME_LENGTH - 1)}`]: 'v' } },
      `headers.X-${'n'.repeat(MAX_HEADER_NAME_LENGTH - 1)}`,
    ],
    ['a header value', { headers: { 'X-Long': '😀'.repeat(999) } }, 'headers.X-Long'],
    [
      'a contentType',
      { attachments: [{ fileName: 'a.bin', content: 'YQ==', contentType: mimeTypeOf(256) }] },
      'attachments[0].contentType',
    ],
  ];

  it.each(onePast)(
    'refuses %s one past its maximum with 400 naming the field, and stores nothing',
    async (_case, overrides, field) => {
      const userId = newUserId();
      const response = await send(userId, overrides).expect(400);
      expect(fieldsOf(response)).toEqual([field]);
      expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    },
  );

  it.each([
    ['a list in one entry', { cc: ['a@example.com, b@example.com'] }, 'cc[0]'],
    ['a group', { bcc: ['ok@example.com', 'team: a@example.com;'] }, 'bcc[1]'],
    ['an unquoted comma in a name', { to: ['Lovelace, Ada <ada@example.com>'] }, 'to'],
    ['an unclosed quote', { sender: '"Ada <ada@example.com>' }, 'sender'],
    ['a name without an address', { replyTo: ['Ada'] }, 'replyTo[0]'],
    ['a line break in a name', { cc: ['Ada\r\nBcc: x@example.com <ada@example.com>'] }, 'cc[0]'],
    ['an address the address rule refuses', { cc: ['Ada <ada@localhost>'] }, 'cc[0]'],
    ['an empty replyTo', { replyTo: [] }, 'replyTo'],
    ['cc that is neither a list nor a string', { cc: { address: 'ada@example.com' } }, 'cc'],
    ['an empty text', { text: '' }, 'text'],
    ['headers that are a list', { headers: [['X-A', 'b']] }, 'headers'],
    ['a header name with a colon', { headers: { 'X-A:B': 'v' } }, 'headers.X-A:B'],
    ['a header name with a space', { headers: { 'X A': 'v' } }, 'headers.X A'],
    ['a header name that is not ASCII', { headers: { 'X-Ünï': 'v' } }, 'headers.X-Ünï'],
    [
      'a header named __proto__, refused as in every object of a body',
      { headers: JSON.parse('{"X-A":"v","__proto__":"x"}') },
      'headers.__proto__',
    ],
    ['a header value with a line break', { headers: { 'X-A': 'v\r\nBcc: x@example.com' } }, 'headers.X-A'],
    ['an empty header value', { headers: { 'X-A': '' } }, 'headers.X-A'],
    ['a blank header value', { headers: { 'X-A': ' \t ' } }, 'headers.X-A'],
    ['a header value that is not a string', { headers: { 'X-A': 1 } }, 'headers.X-A'],
    [
      'a contentType with parameters',
      { attachments: [{ fileName: 'a.txt', content: 'YQ==', contentType: 'text/plain; charset=latin1' }] },
      'attachments[0].contentType',
    ],
    [
      'a contentType without a subtype',
      { attachments: [{ fileName: 'a.txt', content: 'YQ==', contentType: 'text' }] },
      'attachments[0].contentType',
    ],
    [
      'a multipart contentType (its bytes would go out unencoded)',
      { attachments: [{ fileName: 'a.bin', content: 'YQ==', contentType: 'multipart/mixed' }] },
      'attachments[0].contentType',
    ],
    [
      'a message/rfc822 contentType',
      { attachments: [{ fileName: 'a.eml', content: 'YQ==', contentType: 'Message/RFC822' }] },
      'attachments[0].contentType',
    ],
    [
      'a header name holding the control character that separates entries',
      { headers: { 'X-A\u001fB': 'v' } },
      'headers.X-A\\u001fB',
    ],
  ])('refuses %s with 400 naming the field, and stores nothing', async (_case, overrides, field) => {
    const userId = newUserId();
    const response = await send(userId, overrides).expect(400);
    expect(fieldsOf(response)).toEqual([field]);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });
});
