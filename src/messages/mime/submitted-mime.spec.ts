import { simpleParser } from 'mailparser';
import { submittedMime } from './submitted-mime';

const CRLF = '\r\n';
const BODY = [
  '--b',
  'Content-Type: text/plain; charset=utf-8',
  'Content-Transfer-Encoding: 8bit',
  '',
  'Grüße, Message-ID: <not-a-header@x>',
  '--b--',
  '',
].join(CRLF);
const SUBMITTED = Buffer.from(
  [
    'From: Ada <ada@example.com>',
    'To: bob@example.com',
    'Bcc: secret@example.com',
    'Message-ID: <client-chosen@ada.example>',
    'List-Unsubscribe: <https://client.example/u>',
    'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    'Return-Path: <forged@client.example>',
    'DKIM-Signature: v=1; a=rsa-sha256; d=client.example; s=x; h=from; bh=AAAA; b=BBBB',
    'dkim-signature: v=1; a=rsa-sha256; d=other.example; s=y; h=from; bh=AAAA; b=CCCC',
    'Subject: Hello',
    'Content-Type: multipart/mixed; boundary="b"',
    '',
    BODY,
  ].join(CRLF),
);

describe(submittedMime.name, () => {
  it("puts our Message-ID in place of the client's and drops the fields only we write, keeping the rest byte for byte", async () => {
    const sent = await submittedMime(SUBMITTED, '<0192-id@example.com>', {});
    const parsed = await simpleParser(sent);

    expect(parsed.messageId).toBe('<0192-id@example.com>');
    for (const field of ['bcc', 'return-path', 'dkim-signature', 'list-unsubscribe', 'list-unsubscribe-post'])
      expect(parsed.headers.has(field)).toBe(false);
    expect(sent.toString('latin1')).not.toMatch(/client-chosen|client\.example|other\.example|One-Click/);
    expect(parsed.headerLines.map((h) => h.key)).toEqual(['message-id', 'from', 'to', 'subject', 'content-type']);
    // The body, 8-bit bytes and a header-like line included, is the submitted one.
    expect(sent.subarray(sent.length - Buffer.byteLength(BODY))).toEqual(Buffer.from(BODY));
    expect(parsed.text?.trim()).toBe('Grüße, Message-ID: <not-a-header@x>');
  });

  it("adds a copy's headers in place of the client's fields of the same names", async () => {
    const sent = await submittedMime(SUBMITTED, '<id@example.com>', {
      'List-Unsubscribe': '<https://mailroom.example/unsubscribe/t>',
    });
    const lines = sent.toString('latin1').split(CRLF);

    expect(lines.filter((line) => line.toLowerCase().startsWith('list-unsubscribe:'))).toEqual([
      'List-Unsubscribe: <https://mailroom.example/unsubscribe/t>',
    ]);
  });

  it('adds a Message-ID to a message that has none', async () => {
    const sent = await submittedMime(
      Buffer.from(`From: a@example.com${CRLF}Subject: x${CRLF}${CRLF}hi${CRLF}`),
      '<new@example.com>',
      {},
    );

    expect((await simpleParser(sent)).messageId).toBe('<new@example.com>');
    expect(sent.toString().endsWith(`${CRLF}${CRLF}hi${CRLF}`)).toBe(true);
  });
});
