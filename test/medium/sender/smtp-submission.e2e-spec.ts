import { createTransport } from 'nodemailer';
import { deliveringApp } from '../../support/delivering-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import {
  apiKeyFor,
  bodyOf,
  submissionPort,
  submitWithNodemailer,
  submitWithSwaks,
} from '../../support/submission/submission-clients';
import { itIfSwaks } from '../../support/swaks';

const itWithSwaks = itIfSwaks('Submission through swaks');

const CRLF = '\r\n';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

/** A message written by hand, 8-bit UTF-8 body and all, as swaks sends it: DATA is these bytes. */
function handWritten(messageId: string): { raw: Buffer; body: Buffer } {
  // swaks ends DATA with a CRLF of its own, so the body as it arrives is this and one CRLF.
  const body = Buffer.from(
    ['Grüße aus Zürich — ünïcödé in 8 bits.', 'Second line; a dot below:', '.', 'end'].join(CRLF),
  );
  const head = [
    'From: "Zoë Sender" <zoe@sender.example>',
    'To: ann@rcpt.example',
    'Subject: =?UTF-8?Q?Gr=C3=BC=C3=9Fe?= from swaks',
    `Message-ID: <${messageId}@client.example>`,
    'X-Client-Header: kept as is',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
  ].join(CRLF);
  return { raw: Buffer.concat([Buffer.from(head + CRLF + CRLF), body]), body };
}

describe('SMTP submission (docs/api.md#smtp-submission)', () => {
  const { t, sink } = deliveringApp({
    SUBMISSION_SMTP_PORT: '0',
    SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
    MAX_RECIPIENTS: '3',
    MAX_ATTACHMENT_BYTES: '2000',
  });

  it('takes a message from nodemailer (HTML, text, attachment, non-ASCII, bcc) as a REST send would, and delivers it as submitted', async () => {
    const userId = newUserId('smtp');
    const { key } = await apiKeyFor(t, userId);
    const outcome = await submitWithNodemailer(submissionPort(t), key, {
      from: 'Ada Lovelace <ada@sender.example>',
      to: 'Bob <bob@rcpt.example>',
      cc: 'carol@rcpt.example',
      bcc: 'dave@rcpt.example',
      subject: 'Café ☕ report',
      html: '<p>Grüße, <b>Bob</b></p>',
      text: 'Grüße, Bob',
      headers: { 'X-Client-Header': 'kept' },
      attachments: [{ filename: 'pixel.png', content: PNG, contentType: 'image/png' }],
    });
    expect(outcome).toMatchObject({ accepted: true });
    const id = outcome.accepted ? outcome.messageId : '';

    const { body: message } = await t.http.get(`/user/messages/${id}`).set(bearer(userId)).expect(200);
    expect(message).toMatchObject({
      subject: 'Café ☕ report',
      sender: '"Ada Lovelace" <ada@sender.example>',
      to: ['"Bob" <bob@rcpt.example>'],
      cc: ['carol@rcpt.example'],
      bcc: ['dave@rcpt.example'],
      userId,
    });
    // The same senderId a REST send from that address gets.
    const { body: viaRest } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send({ subject: 's', html: '<p>h</p>', to: ['x@rcpt.example'], sender: 'ada@sender.example' })
      .expect(201);
    expect(message.senderId).toBe(viaRest.senderId);
    const { body: list } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(list.messages.map((m: { id: string }) => m.id)).toContain(id);

    await waitForStatus(t.http, userId, id, 'sent');
    const [delivered] = sink.acceptedFor(id);
    expect(delivered.to.sort()).toEqual(['bob@rcpt.example', 'carol@rcpt.example', 'dave@rcpt.example']);
    expect(delivered.from).toBe('ada@sender.example');
    expect(delivered.parsed.messageId).toBe(`<${id}@sender.example>`);
    expect(delivered.parsed.subject).toBe('Café ☕ report');
    expect(delivered.parsed.html).toContain('<p>Grüße, <b>Bob</b></p>');
    expect(delivered.parsed.text?.trim()).toBe('Grüße, Bob');
    expect(delivered.parsed.headers.get('x-client-header')).toBe('kept');
    expect(delivered.parsed.attachments.map((a) => [a.filename, a.contentType, a.content])).toEqual([
      ['pixel.png', 'image/png', PNG],
    ]);
    // The bcc recipient is in the envelope only.
    expect(delivered.raw.toString('latin1')).not.toContain('dave@rcpt.example');
  });

  itWithSwaks(
    "takes 8-bit mail from swaks (AUTH LOGIN) and delivers its body byte for byte, with our Message-ID in place of the client's",
    async () => {
      const userId = newUserId('swaks');
      const { key } = await apiKeyFor(t, userId);
      const { raw, body } = handWritten('swaks-1');

      const { exitCode, transcript } = await submitWithSwaks(
        submissionPort(t),
        key,
        'zoe@sender.example',
        ['ann@rcpt.example'],
        raw,
        undefined,
        'LOGIN',
      );
      expect(exitCode).toBe(0);
      expect(transcript).toMatch(/^ -> AUTH LOGIN/m);
      expect(transcript).toContain('8BITMIME');
      const id = /Queued as (\S+)/.exec(transcript)![1];

      const message = await waitForStatus(t.http, userId, id, 'sent');
      expect(message).toMatchObject({
        subject: 'Grüße from swaks',
        sender: '"Zoë Sender" <zoe@sender.example>',
        to: ['ann@rcpt.example'],
        bcc: null,
      });
      const [delivered] = sink.acceptedFor(id);
      expect(bodyOf(delivered.raw)).toEqual(Buffer.concat([body, Buffer.from(CRLF)]));
      expect(delivered.parsed.messageId).toBe(`<${id}@sender.example>`);
      expect(delivered.raw.toString('latin1')).not.toContain('swaks-1@client.example');
      expect(delivered.parsed.headers.get('x-client-header')).toBe('kept as is');
    },
  );

  it('refuses a wrong password and a key without the send scope with 535, and MAIL before AUTH with 530', async () => {
    const userId = newUserId('auth');
    const { key: readOnly } = await apiKeyFor(t, userId, ['read']);
    const mail = { from: 'a@sender.example', to: 'b@rcpt.example', subject: 's', text: 't' };

    expect(await submitWithNodemailer(submissionPort(t), 'mr_' + 'x'.repeat(43), mail)).toMatchObject({
      accepted: false,
      code: 535,
    });
    expect(await submitWithNodemailer(submissionPort(t), 'not a key', mail)).toMatchObject({
      accepted: false,
      code: 535,
    });
    expect(await submitWithNodemailer(submissionPort(t), readOnly, mail)).toMatchObject({
      accepted: false,
      code: 535,
      reply: expect.stringContaining('send scope'),
    });
    expect(await submitWithNodemailer(submissionPort(t), undefined, mail)).toMatchObject({
      accepted: false,
      code: 530,
    });
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.total).toBe(0);
  });

  itWithSwaks('refuses a key without the send scope to swaks with 535', async () => {
    const userId = newUserId('auth-swaks');
    const { key: readOnly } = await apiKeyFor(t, userId, ['read']);

    const { exitCode, transcript } = await submitWithSwaks(
      submissionPort(t),
      readOnly,
      'a@sender.example',
      ['b@rcpt.example'],
      handWritten('x').raw,
    );
    expect(exitCode).not.toBe(0);
    expect(transcript).toMatch(/<\*\*\s+535 /);
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.total).toBe(0);
  });

  it('refuses a message the API would refuse as a whole at DATA, naming the field, and stores nothing', async () => {
    const userId = newUserId('refusals');
    const { key } = await apiKeyFor(t, userId);
    const port = submissionPort(t);
    const base = { from: 'a@sender.example', subject: 'hello', text: 'hi' };

    // Four recipients, one over MAX_RECIPIENTS: every RCPT is taken, the message refused once.
    const tooMany = await submitWithNodemailer(port, key, {
      ...base,
      to: ['r1@rcpt.example', 'r2@rcpt.example'],
      bcc: ['r3@rcpt.example', 'r4@rcpt.example'],
    });
    expect(tooMany).toMatchObject({ accepted: false, code: 554, reply: expect.stringMatching(/to .*3/) });
    // Exactly MAX_RECIPIENTS passes.
    expect(
      await submitWithNodemailer(port, key, {
        ...base,
        to: ['r1@rcpt.example', 'r2@rcpt.example'],
        bcc: ['r3@rcpt.example'],
      }),
    ).toMatchObject({ accepted: true });

    const noSubject = await submitWithNodemailer(port, key, { from: base.from, to: 'b@rcpt.example', text: 'hi' });
    expect(noSubject).toMatchObject({ accepted: false, code: 554, reply: expect.stringContaining('subject') });
    const twoSenders = await submitWithNodemailer(port, key, {
      ...base,
      from: 'a@sender.example, c@sender.example',
      to: 'b@rcpt.example',
    });
    expect(twoSenders).toMatchObject({ accepted: false, code: 554, reply: expect.stringContaining('sender') });
    // MAX_ATTACHMENT_BYTES (2,000) counts decoded bytes: 2,000 pass, 2,001 do not.
    const attach = (bytes: number) =>
      submitWithNodemailer(port, key, {
        ...base,
        to: 'b@rcpt.example',
        attachments: [{ filename: 'a.bin', content: Buffer.alloc(bytes, 7) }],
      });
    expect(await attach(2001)).toMatchObject({
      accepted: false,
      code: 552,
      reply: expect.stringContaining('2001 bytes'),
    });
    expect(await attach(2000)).toMatchObject({ accepted: true });

    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.total).toBe(2);
  });

  it('takes a message of exactly the REST body limit (20 MiB) to DATA, and refuses one byte more with 552', async () => {
    const userId = newUserId('size');
    const { key } = await apiKeyFor(t, userId);
    const limit = 20 * 1024 * 1024;
    const head = Buffer.from(['From: a@sender.example', 'To: b@rcpt.example', 'Subject: big', '', ''].join(CRLF));
    const line = Buffer.from('x'.repeat(98) + CRLF);
    const sized = (bytes: number) => {
      const body = Buffer.alloc(bytes - head.length, line);
      return Buffer.concat([head, body.subarray(0, body.length - 2), Buffer.from(CRLF)]);
    };
    const submit = (raw: Buffer) =>
      submitWithNodemailer(submissionPort(t), key, {
        envelope: { from: 'a@sender.example', to: ['b@rcpt.example'] },
        raw,
      });

    // Within SIZE, so it reaches the validation, whose 5 MiB html limit refuses it, naming the field.
    expect(await submit(sized(limit))).toMatchObject({
      accepted: false,
      code: 554,
      reply: expect.stringContaining('html'),
    });
    expect(await submit(sized(limit + 1))).toMatchObject({ accepted: false, code: 552 });
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.total).toBe(0);
  }, 60_000);

  it('refuses the next transaction of a session whose key was deleted meanwhile', async () => {
    const userId = newUserId('revoked');
    const { id: keyId, key } = await apiKeyFor(t, userId);
    // One pooled connection: both messages go through the same logged-in session.
    const transport = createTransport({
      pool: true,
      maxConnections: 1,
      host: '127.0.0.1',
      port: submissionPort(t),
      secure: false,
      ignoreTLS: true,
      auth: { user: 'u', pass: key },
    });
    try {
      const first = await transport.sendMail({
        from: 'a@sender.example',
        to: 'b@rcpt.example',
        subject: 'one',
        text: '1',
      });
      expect(first.response).toContain('Queued as');
      await t.http.delete(`/user/api-keys/${keyId}`).set(bearer(userId)).expect(204);
      await expect(
        transport.sendMail({ from: 'a@sender.example', to: 'b@rcpt.example', subject: 'two', text: '2' }),
      ).rejects.toMatchObject({ responseCode: 530 });
    } finally {
      transport.close();
    }
    const { body } = await t.http.get('/user/messages').set(bearer(userId)).expect(200);
    expect(body.messages.map((m: { subject: string }) => m.subject)).toEqual(['one']);
  });
});
