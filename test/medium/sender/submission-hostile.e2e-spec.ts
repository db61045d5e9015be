// Hostile submitted messages (docs/api.md#smtp-submission): a NUL byte, repeated identity fields, fields only the
// service writes, and refusals that would quote non-ASCII text. Each is refused whole (or cleaned)
// without touching anyone else's acceptance; every reply is ASCII. Clients: nodemailer, which
// sends a `raw` message's bytes as they are, and supertest (node's http) for the REST sends beside them.
import { deliveringApp } from '../../support/delivering-app';
import { NOTHING_OWNED, rowsOwnedBy, sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import { apiKeyFor, submissionPort, submitWithNodemailer } from '../../support/submission/submission-clients';

const CRLF = '\r\n';
const ASCII_LINE = /^[\x20-\x7e]*$/;

const message = (...lines: string[]) => Buffer.from([...lines, ''].join(CRLF));

describe('hostile submitted messages (docs/api.md#smtp-submission)', () => {
  const { t, sink } = deliveringApp({
    SUBMISSION_SMTP_PORT: '0',
    SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
    RATE_LIMIT_PER_MINUTE: '100000',
  });

  const submitRaw = async (key: string, raw: Buffer, to = ['b@rcpt.example'], localAddress?: string) =>
    submitWithNodemailer(
      submissionPort(t),
      key,
      { envelope: { from: 'a@sender.example', to }, raw },
      { ...(localAddress && { localAddress }) },
    );

  it("refuses a NUL byte anywhere with 554 and stores nothing, while another user's REST sends all go in", async () => {
    const submitter = newUserId('nul');
    const other = newUserId('rest-beside-nul');
    const { key } = await apiKeyFor(t, submitter);
    const shapes = [
      message('From: a@sender.example', 'To: b@rcpt.example', 'Subject: nul in body', '', 'before\0after'),
      message('From: a@sender.example', 'To: b@rcpt.example', 'Subject: nul\0in subject', '', 'body'),
      Buffer.concat([
        message('From: a@sender.example', 'To: b@rcpt.example', 'Subject: nul at the end', '', 'body'),
        Buffer.from([0]),
        Buffer.from(CRLF),
      ]),
    ];
    const withNul = Array.from({ length: 4 }, () => shapes).flat();

    // REST sends of another user, 8 at a time, for as long as the refused submissions are in
    // flight: none may fail because of them. (Refused at DATA, they never reach a group commit;
    // test/group-commit and test/unstorable-send put an unstorable send in a shared one.)
    let submitting = true;
    const restStatuses: number[] = [];
    const restLoop = async () => {
      while (submitting || restStatuses.length === 0) {
        const response = await t.http
          .post('/sender/send')
          .set(bearer(other))
          .send(sendBody({ subject: `beside ${restStatuses.length}` }));
        restStatuses.push(response.status);
      }
    };
    const rest = Promise.all(Array.from({ length: 8 }, restLoop));
    // Two addresses of six, as a crowd of clients comes (SmtpSessionLimits.clientsPerAddress).
    const outcomes = await Promise.all(withNul.map((raw, i) => submitRaw(key, raw, undefined, `127.0.4.${i % 2}`)));
    submitting = false;
    await rest;

    expect(restStatuses.length).toBeGreaterThan(0);
    expect(restStatuses.filter((status) => status !== 201)).toEqual([]);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ accepted: false, code: 554, reply: expect.stringContaining('NUL byte') });
      expect(outcome.reply).toMatch(ASCII_LINE);
    }
    expect(await rowsOwnedBy(t.db, submitter)).toEqual(NOTHING_OWNED);
    // The same session's next message, without the NUL, is taken.
    expect(
      await submitRaw(key, message('From: a@sender.example', 'To: b@rcpt.example', 'Subject: clean', '', 'body')),
    ).toMatchObject({ accepted: true });
  });

  it('refuses a NUL that only decoding makes (an encoded word, quoted-printable =00) with 554 naming the field', async () => {
    const userId = newUserId('encoded-nul');
    const { key } = await apiKeyFor(t, userId);

    const inSubject = await submitRaw(
      key,
      message('From: a@sender.example', 'To: b@rcpt.example', 'Subject: =?UTF-8?B?YQBi?=', '', 'body'),
    );
    const inHtml = await submitRaw(
      key,
      message(
        'From: a@sender.example',
        'To: b@rcpt.example',
        'Subject: s',
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
        '<p>a=00b</p>',
      ),
    );

    expect(inSubject).toMatchObject({
      accepted: false,
      code: 554,
      reply: expect.stringContaining('subject must not contain NUL'),
    });
    expect(inHtml).toMatchObject({
      accepted: false,
      code: 554,
      reply: expect.stringContaining('html must not contain NUL'),
    });
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });

  it('refuses a second From, Sender, To, Cc, Subject or Message-ID with 554 naming the field (RFC 5322 §3.6), and stores nothing', async () => {
    const userId = newUserId('twice');
    const { key } = await apiKeyFor(t, userId);
    const once = [
      'From: a@sender.example',
      'Sender: s@sender.example',
      'To: b@rcpt.example',
      'Cc: c@rcpt.example',
      'Subject: once each',
      'Message-ID: <m@sender.example>',
    ];

    // The spoof of issue 21: a reader sees the bank, the signature and `sender` follow the attacker.
    const spoof = await submitRaw(
      key,
      message(
        'From: "Bank Security" <security@bank.example>',
        'From: x@attacker.test',
        'To: b@rcpt.example',
        'Subject: Your account',
        '',
        'Click',
      ),
    );
    expect(spoof).toMatchObject({ accepted: false, code: 554, reply: expect.stringMatching(/From appears 2 times/) });
    for (const field of once) {
      const name = field.slice(0, field.indexOf(':'));
      const outcome = await submitRaw(key, message(...once, field, '', 'body'));
      expect(outcome).toMatchObject({
        accepted: false,
        code: 554,
        reply: expect.stringContaining(`${name} appears 2 times`),
      });
    }
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
    // Each once, the most allowed: taken.
    expect(await submitRaw(key, message(...once, '', 'body'), ['b@rcpt.example', 'c@rcpt.example'])).toMatchObject({
      accepted: true,
    });
  });

  it("delivers without the client's Return-Path, DKIM-Signature, List-Unsubscribe, List-Unsubscribe-Post and Bcc", async () => {
    const userId = newUserId('ours-only');
    const { key } = await apiKeyFor(t, userId);
    const raw = message(
      'Return-Path: <forged-return@attacker.test>',
      'DKIM-Signature: v=1; a=rsa-sha256; d=attacker.test; s=forged; h=from:subject; bh=AAAA; b=BBBB',
      'From: a@sender.example',
      'To: b@rcpt.example',
      'Bcc: hidden@rcpt.example',
      'List-Unsubscribe: <https://attacker.test/forged-unsubscribe>',
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'Subject: only our fields',
      'X-Kept: yes',
      '',
      'body',
    );

    const outcome = await submitRaw(key, raw, ['b@rcpt.example', 'hidden@rcpt.example']);
    expect(outcome).toMatchObject({ accepted: true });
    const id = outcome.accepted ? outcome.messageId : '';
    await waitForStatus(t.http, userId, id, 'sent');

    const [delivered] = sink.acceptedFor(id);
    const text = delivered.raw.toString('latin1');
    expect(text).not.toMatch(/attacker\.test|hidden@rcpt\.example|One-Click/i);
    expect(text).not.toMatch(/^(Return-Path|DKIM-Signature|List-Unsubscribe|List-Unsubscribe-Post|Bcc):/im);
    expect(delivered.parsed.headers.get('x-kept')).toBe('yes');
    expect(delivered.to.sort()).toEqual(['b@rcpt.example', 'hidden@rcpt.example']);
  });

  it("answers in ASCII a refusal that quotes a validation message and the client's own text", async () => {
    const userId = newUserId('ascii');
    const { key } = await apiKeyFor(t, userId);

    // The subject rule's message ("1 to 998 characters") once had an en dash.
    const longSubject = await submitRaw(
      key,
      message('From: a@sender.example', 'To: b@rcpt.example', `Subject: ${'é'.repeat(999)}`, '', 'body'),
    );
    // A From the validation refuses, whose text (non-ASCII display names) the refusal names.
    const twoSenders = await submitRaw(
      key,
      message(
        'From: =?UTF-8?Q?Zo=C3=AB_=E2=80=93?= <a@sender.example>, =?UTF-8?Q?=C3=89mile?= <e@sender.example>',
        'To: b@rcpt.example',
        'Subject: s',
        '',
        'body',
      ),
    );

    expect(longSubject).toMatchObject({
      accepted: false,
      code: 554,
      reply: expect.stringContaining('subject must be 1 to 998 characters'),
    });
    expect(twoSenders).toMatchObject({ accepted: false, code: 554, reply: expect.stringContaining('sender') });
    for (const outcome of [longSubject, twoSenders]) expect(outcome.reply).toMatch(ASCII_LINE);
    expect(await rowsOwnedBy(t.db, userId)).toEqual(NOTHING_OWNED);
  });
});
