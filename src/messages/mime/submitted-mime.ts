import { Readable, Transform } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';

// mailsplit: the MIME splitter mailparser itself is built on (same maintainer); no typings ship with it.
interface MailsplitHeaders {
  remove(key: string): void;
  add(key: string, value: string, index?: number): void;
}
interface MailsplitChunk {
  type?: string;
  root?: boolean;
  headers?: MailsplitHeaders;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- no typings to import it with
const { Splitter, Joiner } = require('mailsplit') as { Splitter: new () => Transform; Joiner: new () => Transform };

/**
 * Header fields of the submitted message that only the service writes (docs/api.md#smtp-submission), whatever the
 * client wrote: the Message-ID that names our message; never a Bcc (docs/api.md#sending: bcc recipients are in
 * no header); the trace and signature fields, which a client's copy would forge (a Return-Path of
 * its choosing, a DKIM-Signature of another domain over our bytes); and the unsubscribe fields,
 * which are ours to offer (docs/delivery-and-deliverability.md) and a client's would send readers elsewhere.
 */
const REPLACED = ['Message-ID', 'Bcc', 'Return-Path', 'DKIM-Signature', 'List-Unsubscribe', 'List-Unsubscribe-Post'];

/**
 * A message submitted over SMTP as it is delivered (docs/api.md#smtp-submission): its own bytes, but for the top
 * header block, where our Message-ID replaces the client's (if any), the other fields only we
 * write are dropped, and `headers` (a copy's List-Unsubscribe) are added, replacing fields of the
 * same names. Everything below the top header block, bodies and attachments, passes byte for byte.
 */
export async function submittedMime(mime: Buffer, messageId: string, headers: Record<string, string>): Promise<Buffer> {
  return buffer(submittedMimeStream(Readable.from([mime]), messageId, headers));
}

/**
 * submittedMime as a stream, read from `source` as it is read itself (backpressure all the way):
 * a reader that stops reading holds a chunk or two, not the message. An error of `source` or of
 * the splitter ends the stream with it.
 */
export function submittedMimeStream(source: Readable, messageId: string, headers: Record<string, string>): Readable {
  const added = { ...headers, 'Message-ID': messageId };
  const rewrite = new Transform({
    objectMode: true,
    // One chunk at a time: a reader that stops reading should stop the reading, not fill a buffer.
    highWaterMark: 1,
    transform(chunk: MailsplitChunk | Buffer, _encoding, callback) {
      if (!Buffer.isBuffer(chunk) && chunk.type === 'node' && chunk.root && chunk.headers) {
        for (const key of [...REPLACED, ...Object.keys(headers)]) chunk.headers.remove(key);
        // At the top, where a reader expects trace and identity fields; the client's order below is kept.
        for (const [key, value] of Object.entries(added).reverse()) chunk.headers.add(key, value, 0);
      }
      callback(null, chunk);
    },
  });
  const joiner = new Joiner();
  pipeline(source, new Splitter(), rewrite, joiner).catch((err: Error) => joiner.destroy(err));
  return joiner;
}
