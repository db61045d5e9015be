import { PassThrough } from 'node:stream';
import type { SMTPServerDataStream } from 'smtp-server';
import { SpooledMessage } from './spooled-message';

/** DATA as smtp-server hands it on: a stream of chunks, cut where the client's packets were. */
function data(...chunks: string[]): SMTPServerDataStream {
  const stream = Object.assign(new PassThrough(), { sizeExceeded: false, byteLength: 0 });
  for (const chunk of chunks) stream.write(Buffer.from(chunk, 'latin1'));
  stream.end();
  return stream;
}

describe(SpooledMessage.name, () => {
  const spooled: SpooledMessage[] = [];
  afterEach(async () => Promise.all(spooled.splice(0).map((message) => message.remove())));
  const spool = async (stream: SMTPServerDataStream, keepNul = false) => {
    const message = await SpooledMessage.spool(stream, { keepNul });
    spooled.push(message);
    return message;
  };

  it.each([
    ['one chunk', ['ab\r\nabcd\r\nabc\r\n'], 4, 3],
    ['a CRLF cut between its CR and LF', ['ab\r\nabcd\r', '\nabc\r\n'], 4, 3],
    ['a line cut across chunks', ['ab\r\nab', 'cd', 'e\r\n'], 5, 2],
    ['a bare LF and a CR inside a line', ['abc\nab\rcd\r\n'], 5, 2],
    ['a last line without its line end', ['ab\r\nabcdef'], 6, 2],
    ['a CR at the very end', ['ab\r\nabc\r'], 3, 2],
  ])('measures the longest line and counts the lines with %s', async (_, chunks, longest, lines) => {
    const message = await spool(data(...chunks));
    expect(message.longestLine).toBe(longest);
    expect(message.lines).toBe(lines);
    expect(message.size).toBe(chunks.join('').length);
  });

  it('keeps NUL bytes when told to, and stops at the first one otherwise', async () => {
    const kept = await spool(data('a\0b\r\n', 'c\r\n'), true);
    expect({ hasNul: kept.hasNul, bytes: (await kept.read()).toString('latin1') }).toEqual({
      hasNul: true,
      bytes: 'a\0b\r\nc\r\n',
    });
    const cut = await spool(data('ab\r\n', 'a\0b\r\n', 'c\r\n'));
    expect({ hasNul: cut.hasNul, bytes: (await cut.read()).toString('latin1') }).toEqual({
      hasNul: true,
      bytes: 'ab\r\n',
    });
  });
});
