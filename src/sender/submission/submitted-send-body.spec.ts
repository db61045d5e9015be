import { InvalidInputError } from '../../platform/problem/problem.errors';
import { readSubmittedSendBody } from './submitted-send-body';

const CRLF = '\r\n';
const mime = (...headers: string[]) =>
  Buffer.from([...headers, 'Content-Type: text/plain; charset=utf-8', '', 'Hi <there> & you', ''].join(CRLF));

describe(readSubmittedSendBody.name, () => {
  it('takes to and cc from the headers, bcc from the envelope recipients named in neither', async () => {
    const { body } = await readSubmittedSendBody(
      mime(
        'From: =?UTF-8?Q?Zo=C3=AB?= <zoe@a.example>',
        'To: Bob <bob@b.example>, nobody@b.example',
        'Cc: carol@b.example',
        'Subject: =?UTF-8?B?Q2Fmw6k=?=',
      ),
      ['BOB@b.example', 'carol@b.example', 'dave@b.example'],
    );

    expect(body).toEqual({
      subject: 'Café',
      sender: '"Zoë" <zoe@a.example>',
      // nobody@ is in the header but not the envelope: it gets nothing.
      to: ['"Bob" <bob@b.example>'],
      cc: ['carol@b.example'],
      bcc: ['dave@b.example'],
      // No HTML part: the text part, escaped.
      html: expect.stringContaining('Hi &lt;there&gt; &amp; you'),
      text: 'Hi <there> & you',
    });
  });

  it('makes the envelope recipients `to` when no To mailbox is one (undisclosed recipients)', async () => {
    const { body } = await readSubmittedSendBody(
      mime('From: zoe@a.example', 'To: undisclosed-recipients:;', 'Subject: s'),
      ['x@b.example', 'y@b.example'],
    );

    expect(body).toMatchObject({ to: ['x@b.example', 'y@b.example'] });
    expect(body.bcc).toBeUndefined();
  });

  it('opens groups, and gives a From of two mailboxes as its text for the validation to refuse', async () => {
    const { body } = await readSubmittedSendBody(
      mime('From: a@a.example, b@a.example', 'To: team: x@b.example;', 'Subject: s'),
      ['x@b.example'],
    );

    expect(body).toMatchObject({ to: ['x@b.example'], sender: 'a@a.example, b@a.example' });
  });

  it('counts the decoded bytes of every attachment', async () => {
    const raw = Buffer.from(
      [
        'From: a@a.example',
        'To: x@b.example',
        'Subject: s',
        'Content-Type: multipart/mixed; boundary=b',
        '',
        '--b',
        'Content-Type: text/html',
        '',
        '<p>hi</p>',
        '--b',
        'Content-Type: application/octet-stream',
        'Content-Disposition: attachment; filename=a.bin',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.alloc(300, 1).toString('base64'),
        '--b',
        'Content-Type: image/png',
        'Content-Disposition: inline; filename=b.png',
        'Content-ID: <b>',
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.alloc(33, 2).toString('base64'),
        '--b--',
        '',
      ].join(CRLF),
    );

    const { body, attachmentBytes } = await readSubmittedSendBody(raw, ['x@b.example']);

    expect(attachmentBytes).toBe(333);
    expect(body.html).toBe('<p>hi</p>');
    expect(body.text).toBeUndefined();
  });

  it('keeps an HTML-only message its HTML, however deep it nests, and gives it no text of its own', async () => {
    const html = `${'<div>'.repeat(10_000)}deep${'</div>'.repeat(10_000)}`;
    const raw = Buffer.from(
      ['From: a@a.example', 'To: x@b.example', 'Subject: s', 'Content-Type: text/html', '', html, ''].join(CRLF),
    );

    const { body } = await readSubmittedSendBody(raw, ['x@b.example']);

    expect(body.html).toBe(`${html}\n`);
    expect(body.text).toBeUndefined();
  });

  it('refuses each of From, Sender, To, Cc, Subject and Message-ID that appears twice, by name, and takes each once', async () => {
    const once = [
      'From: a@a.example',
      'Sender: s@a.example',
      'To: x@b.example',
      'Cc: y@b.example',
      'Subject: s',
      'Message-ID: <m@a.example>',
    ];
    await expect(readSubmittedSendBody(mime(...once), ['x@b.example'])).resolves.toMatchObject({
      body: { sender: 'a@a.example' },
    });

    for (const field of once) {
      const name = field.slice(0, field.indexOf(':'));
      // A second field of the same name in another letter case is the same field.
      const twice = readSubmittedSendBody(mime(...once, field.replace(name, name.toUpperCase())), ['x@b.example']);
      await expect(twice).rejects.toBeInstanceOf(InvalidInputError);
      await expect(twice).rejects.toMatchObject({
        errors: [{ field: name, message: expect.stringContaining('appears 2 times') }],
      });
    }
  });

  it('names every repeated field at once, the spoofing From of issue 21 among them', async () => {
    const spoof = mime(
      'From: "Bank Security" <security@bank.example>',
      'From: x@attacker.test',
      'To: x@b.example',
      'Subject: s',
      'Subject: t',
      'Subject: u',
    );

    await expect(readSubmittedSendBody(spoof, ['x@b.example'])).rejects.toMatchObject({
      errors: [
        { field: 'From', message: expect.stringContaining('appears 2 times') },
        { field: 'Subject', message: expect.stringContaining('appears 3 times') },
      ],
    });
  });
});
