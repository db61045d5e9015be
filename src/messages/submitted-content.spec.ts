import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { simpleParser } from 'mailparser';
import { decoderOf, submittedContent } from './submitted-content';

const CRLF = '\r\n';
// Parts in each transfer encoding, one inside a nested multipart, one at the very end of the MIME.
const MIME = Buffer.from(
  [
    'From: zoe@example.com',
    'To: ada@example.com',
    'Subject: ranges',
    'MIME-Version: 1.0',
    'Content-Type: multipart/mixed; boundary="outer"',
    '',
    '--outer',
    'Content-Type: multipart/related; boundary="inner"',
    '',
    '--inner',
    'Content-Type: text/html; charset=utf-8',
    '',
    '<p>Hi</p><img src="cid:logo@x">',
    '--inner',
    'Content-Type: image/png',
    'Content-Transfer-Encoding: base64',
    'Content-ID: <logo@x>',
    '',
    Buffer.from('\x89PNG fake image bytes \x00\x01\x02', 'latin1').toString('base64'),
    '--inner--',
    '',
    '--outer',
    'Content-Type: text/plain; charset=utf-8; name="notes.txt"',
    'Content-Disposition: attachment; filename="notes.txt"',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Gr=C3=BC=C3=9Fe, a soft=',
    ' break and a line',
    'ends here',
    '--outer',
    'Content-Type: application/octet-stream',
    'Content-Disposition: attachment; filename="plain.bin"',
    '',
    'seven bit as it is',
    '--outer--',
    '',
  ].join(CRLF),
  'latin1',
);

describe('submittedContent', () => {
  it("locates each attachment's body: its range, decoded as its encoding says, is what mailparser decodes", async () => {
    const read = await submittedContent(Readable.from([MIME.subarray(0, 100), MIME.subarray(100)]));
    const parsed = await simpleParser(MIME);
    expect(read.attachments.map((a) => [a.fileName, a.encoding])).toEqual([
      [null, 'base64'],
      ['notes.txt', 'quoted-printable'],
      ['plain.bin', null],
    ]);
    expect(read.attachments).toHaveLength(parsed.attachments.length);
    expect(parsed.attachments[1].content.toString()).toContain('Grüße, a soft break and a line');
    for (const [i, part] of read.attachments.entries()) {
      const decoded = await buffer(Readable.from([MIME.subarray(part.start, part.end)]).pipe(decoderOf(part.encoding)));
      expect(decoded.equals(parsed.attachments[i].content)).toBe(true);
      expect(part.size).toBe(parsed.attachments[i].content.length);
    }
    expect(read.html).toBe('<p>Hi</p><img src="cid:logo@x">');
    expect(read.attachments[0].contentId).toBe('logo@x');
  });
});
