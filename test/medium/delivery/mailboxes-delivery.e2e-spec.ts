// Mailboxes with display names, cc, bcc, replyTo, text, custom headers and content types (docs/api.md#sending)
// reach a real SMTP server (smtp-server) as sent: the envelope as the server saw it, the headers
// and parts as mailparser reads them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressObject, simpleParser } from 'mailparser';
import { sendBody } from '../../support/factories';
import { deliveringApp } from '../../support/delivering-app';
import { bootTestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

// mailparser's own decoder of encoded words (it ships without typings).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- libmime ships no typings; the cast gives it the one function used
const libmime = require('libmime') as { decodeWords(value: string): string };

/** Every mailbox of a header, as mailparser reads it. */
const mailboxes = (header: AddressObject | AddressObject[] | undefined) =>
  [header ?? []].flat().flatMap((object) => object.value.map(({ name, address }) => ({ name, address })));

describe('mailboxes, cc, bcc and the other send fields over SMTP', () => {
  const { t, sink } = deliveringApp();

  afterEach(() => sink.refuseRecipients.clear());

  const send = async (userId: string, overrides: Record<string, unknown>) =>
    (await t.http.post('/sender/send').set(bearer(userId)).send(sendBody(overrides)).expect(201)).body;

  it('writes display names (quoted commas, non-ASCII) in the headers and addresses alone in the envelope; bcc only in the envelope', async () => {
    const userId = newUserId();
    const body = {
      sender: '"Billing, Example Ltd" <billing@example.com>',
      to: ['Ada Lovelace <ada@example.com>', '"Hopper, Grace" <grace@example.com>', 'plain@example.com'],
      cc: ['Zoë Ünïcode-Ø <zoe@example.com>', '"Ops ☕" <".ops"@example.com>'],
      bcc: ['Secret Keeper <secret@example.com>', 'hidden@example.com'],
      replyTo: ['Support Desk <support@example.com>', 'help@example.com'],
    };
    const message = await send(userId, body);
    expect(message).toMatchObject({
      sender: body.sender,
      to: body.to,
      cc: body.cc,
      bcc: body.bcc,
      replyTo: body.replyTo,
    });
    await waitForStatus(t.http, userId, message.id, 'sent');

    const [mail] = sink.acceptedFor(message.id);
    expect(mail.from).toBe('billing@example.com');
    expect(mail.to).toEqual([
      'ada@example.com',
      'grace@example.com',
      'plain@example.com',
      'zoe@example.com',
      '".ops"@example.com',
      'secret@example.com',
      'hidden@example.com',
    ]);
    expect(mailboxes(mail.parsed.from)).toEqual([{ name: 'Billing, Example Ltd', address: 'billing@example.com' }]);
    expect(mailboxes(mail.parsed.to)).toEqual([
      { name: 'Ada Lovelace', address: 'ada@example.com' },
      { name: 'Hopper, Grace', address: 'grace@example.com' },
      { name: '', address: 'plain@example.com' },
    ]);
    expect(mailboxes(mail.parsed.cc)).toEqual([
      { name: 'Zoë Ünïcode-Ø', address: 'zoe@example.com' },
      { name: 'Ops ☕', address: '".ops"@example.com' },
    ]);
    expect(mailboxes(mail.parsed.replyTo)).toEqual([
      { name: 'Support Desk', address: 'support@example.com' },
      { name: '', address: 'help@example.com' },
    ]);
    expect(mail.parsed.bcc).toBeUndefined();
    const headerBlock = mail.raw.toString('latin1').split('\r\n\r\n')[0];
    expect(headerBlock).not.toMatch(/^bcc:/im);
    expect(headerBlock).not.toMatch(/secret@example\.com|hidden@example\.com|Secret Keeper/i);
    // Non-ASCII names go as RFC 2047 encoded words: the raw header block is ASCII.
    // eslint-disable-next-line no-control-regex -- the whole ASCII range, controls included: nothing above it
    expect(headerBlock).toMatch(/^[\x00-\x7f]*$/);
  });

  it("sends the text part as given, the custom headers and the attachments' content types", async () => {
    const userId = newUserId();
    const text = 'Hello Ada,\n\nthe plain part, word for word — not derived from the HTML.';
    const message = await send(userId, {
      html: '<p>The <b>HTML</b> part</p>',
      text,
      headers: {
        'X-Campaign': 'march-invoices',
        'X-Entity-Ref-ID': 'ref 42; ünïcode',
        'x-lower': 'lower-case name',
        toString: 'a header like any other',
      },
      attachments: [
        { fileName: 'data.bin', content: Buffer.from('{"a":1}').toString('base64'), contentType: 'application/json' },
        { fileName: 'invoice.pdf', content: Buffer.from('%PDF').toString('base64') },
        { fileName: 'photo', content: Buffer.from([0xff, 0xd8]).toString('base64'), contentType: 'image/jpeg' },
      ],
    });
    await waitForStatus(t.http, userId, message.id, 'sent');

    const { parsed } = sink.acceptedFor(message.id)[0];
    expect(parsed.text?.trim()).toBe(text);
    expect(parsed.html).toContain('<b>HTML</b>');
    expect(parsed.headers.get('x-campaign')).toBe('march-invoices');
    // mailparser leaves headers it does not know as written: non-ASCII as an RFC 2047 encoded word.
    const entityRefId = parsed.headers.get('x-entity-ref-id');
    expect(typeof entityRefId).toBe('string');
    expect(libmime.decodeWords(entityRefId as string)).toBe('ref 42; ünïcode');
    expect(parsed.headers.get('x-lower')).toBe('lower-case name');
    expect(parsed.headers.get('tostring')).toBe('a header like any other');
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['data.bin', 'application/json'],
      ['invoice.pdf', 'application/pdf'],
      ['photo', 'image/jpeg'],
    ]);
    const [stored] = await t.db.query(
      `SELECT content_type FROM message_attachments WHERE message_id = $1 AND position = 0`,
      [message.id],
    );
    expect(stored.content_type).toBe('application/json');
  });

  it('still derives the text part from the HTML when no text is given, and answers null for the fields not given', async () => {
    const userId = newUserId();
    const message = await send(userId, { html: '<p>Only <b>HTML</b></p>' });
    expect(message).toMatchObject({ cc: null, bcc: null, replyTo: null });
    await waitForStatus(t.http, userId, message.id, 'sent');
    expect(sink.acceptedFor(message.id)[0].parsed.text?.trim()).toBe('Only HTML');
  });

  it('sends to the other recipients when the server refuses a cc or bcc one, and names it', async () => {
    const userId = newUserId();
    sink.refuseRecipients = new Set(['gone-cc@example.com', 'gone-bcc@example.com']);
    const message = await send(userId, {
      to: ['ada@example.com'],
      cc: ['Gone <gone-cc@example.com>'],
      bcc: ['gone-bcc@example.com', 'kept@example.com'],
    });
    const sent = await waitForStatus(t.http, userId, message.id, 'sent');
    // The message's entry, then one naming each refused recipient (docs/delivery-and-deliverability.md#statuses "Recipients").
    const [entry, ...named] = sent.statusHistory.slice(-3);
    expect(entry.detail).toContain('refused: gone-cc@example.com, gone-bcc@example.com');
    expect(named.map((e: { recipient: string }) => e.recipient)).toEqual([
      'gone-cc@example.com',
      'gone-bcc@example.com',
    ]);
    expect(sink.acceptedFor(message.id)[0].to).toEqual(['ada@example.com', 'kept@example.com']);
  });

  it('fails when every to, cc and bcc recipient is refused', async () => {
    const userId = newUserId();
    sink.refuseRecipients = new Set(['a-gone@example.com', 'b-gone@example.com']);
    const message = await send(userId, { to: ['a-gone@example.com'], bcc: ['b-gone@example.com'] });
    const failed = await waitForStatus(t.http, userId, message.id, 'failed');
    expect(failed.statusHistory.at(-1).detail).toContain('550');
  });
});

describe('the outbox transport (no SMTP_URL) with the mailbox fields', () => {
  it('writes display names, Cc, Reply-To, the text and custom headers into the .eml file, and no Bcc', async () => {
    const t = await bootTestApp({ ROLE: 'all' }, { isolatedDatabase: true });
    try {
      const userId = newUserId();
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(
          sendBody({
            sender: 'Billing <billing@example.com>',
            to: ['"Lovelace, Ada" <ada@example.com>'],
            cc: ['Zoë <zoe@example.com>'],
            bcc: ['hidden@example.com'],
            replyTo: ['help@example.com'],
            text: 'As given',
            headers: { 'X-Campaign': 'march' },
          }),
        )
        .expect(201);
      await waitForStatus(t.http, userId, body.id, 'sent');
      const raw = readFileSync(join(t.config.dataDir, 'outbox', `${body.id}.eml`));
      const parsed = await simpleParser(raw);
      expect(parsed.messageId).toBe(`<${body.id}@example.com>`);
      expect(mailboxes(parsed.from)).toEqual([{ name: 'Billing', address: 'billing@example.com' }]);
      expect(mailboxes(parsed.to)).toEqual([{ name: 'Lovelace, Ada', address: 'ada@example.com' }]);
      expect(mailboxes(parsed.cc)).toEqual([{ name: 'Zoë', address: 'zoe@example.com' }]);
      expect(mailboxes(parsed.replyTo)).toEqual([{ name: '', address: 'help@example.com' }]);
      expect(parsed.text?.trim()).toBe('As given');
      expect(parsed.headers.get('x-campaign')).toBe('march');
      expect(parsed.bcc).toBeUndefined();
      expect(raw.toString('latin1')).not.toContain('hidden@example.com');
    } finally {
      await t.close();
    }
  });
});
