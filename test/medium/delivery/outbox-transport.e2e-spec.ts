// The outbox transport (no SMTP_URL): one .eml file per message in DATA_DIR/outbox, read back
// with mailparser, and each file's SMTP envelope beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { sendBody } from '../../support/factories';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const b64 = (bytes: Buffer) => bytes.toString('base64');

describe('the outbox transport (no SMTP_URL)', () => {
  it('writes one parseable .eml file per message to DATA_DIR/outbox', async () => {
    const t = await bootTestApp({ ROLE: 'all' }, { isolatedDatabase: true });
    try {
      const userId = newUserId();
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ attachments: [{ fileName: 'notes.txt', content: b64(Buffer.from('hello')) }] }))
        .expect(201);
      const sent = await waitForStatus(t.http, userId, body.id, 'sent');
      expect(sent.statusHistory.at(-1).detail).toBe(`written to the outbox as ${body.id}.eml`);
      const parsed = await simpleParser(readFileSync(join(t.config.dataDir, 'outbox', `${body.id}.eml`)));
      expect(parsed.messageId).toBe(`<${body.id}@example.com>`);
      expect(parsed.subject).toBe('Your invoice');
      expect((parsed.to as { text: string }).text).toBe('ada@example.com');
      expect(parsed.html).toBe('<p>Hello Ada</p>');
      expect(parsed.text?.trim()).toBe('Hello Ada');
      expect(parsed.attachments[0].content.toString()).toBe('hello');
    } finally {
      await t.close();
    }
  });
});

describe('the outbox transport: the SMTP envelope beside each file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await bootTestApp({ ROLE: 'all' }, { isolatedDatabase: true });
  });
  afterAll(() => t?.close());

  const outboxFile = (name: string) => readFileSync(join(t.config.dataDir, 'outbox', name));
  const envelopeOf = (name: string) =>
    JSON.parse(readFileSync(join(t.config.dataDir, 'outbox', 'envelopes', `${name}.json`), 'utf8'));
  const addresses = (field: unknown) =>
    [field ?? []].flat().flatMap((list) => (list as { value: { address: string }[] }).value.map((m) => m.address));

  it('names MAIL FROM and every RCPT TO of a message, Bcc included, which the message itself never names', async () => {
    const userId = newUserId();
    const { body } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(
        sendBody({
          sender: 'Billing <billing@example.com>',
          to: ['"Lovelace, Ada" <ada@example.com>'],
          cc: ['grace@example.com'],
          bcc: ['hidden@example.com'],
        }),
      )
      .expect(201);
    await waitForStatus(t.http, userId, body.id, 'sent');

    const raw = outboxFile(`${body.id}.eml`);
    const parsed = await simpleParser(raw);
    expect(envelopeOf(`${body.id}.eml`)).toEqual({
      mailFrom: addresses(parsed.from)[0],
      rcptTo: [...addresses(parsed.to), ...addresses(parsed.cc), 'hidden@example.com'],
    });
    // The control: mailparser read the message's own addresses, and the Bcc stays out of it.
    expect(addresses(parsed.to)).toEqual(['ada@example.com']);
    expect(raw.toString('latin1')).not.toContain('hidden@example.com');
  });

  it("names each recipient's own copy's one recipient", async () => {
    const userId = newUserId();
    const { body } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ to: ['ada@example.com'], bcc: ['linus@example.com'], bulkSendingId: 'spring' }))
      .expect(201);
    await waitForStatus(t.http, userId, body.id, 'sent');

    for (const [position, recipient] of ['ada@example.com', 'linus@example.com'].entries()) {
      const parsed = await simpleParser(outboxFile(`${body.id}.${position}.eml`));
      expect(envelopeOf(`${body.id}.${position}.eml`)).toEqual({
        mailFrom: addresses(parsed.from)[0],
        rcptTo: [recipient],
      });
    }
  });
});
