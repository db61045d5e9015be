import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SMTPServerDataStream } from 'smtp-server';

const LF = 0x0a;
const CR = 0x0d;

/**
 * A message's DATA written to a file of its own as it arrives, so that a session holds a few
 * chunks in memory however large its message and however slowly it comes (docs/api.md#smtp-submission, docs/inbound.md: memory
 * stays bounded whatever clients send); the message is streamed through the parser, and read into
 * memory only to be stored, when its turn comes. Nothing past SIZE is written (smtp-server answers
 * 552 for it). Submission keeps nothing after a NUL byte (such a message is refused whole);
 * inbound mail keeps them (`keepNul`): port 25 takes what the internet sends.
 */
export class SpooledMessage {
  private constructor(
    private readonly dir: string,
    private readonly path: string,
    /** A NUL byte somewhere: no message may hold one (RFC 5322 §2.1, and PostgreSQL text cannot). */
    readonly hasNul: boolean,
    /** Bytes written. */
    readonly size: number,
    /** The longest line's bytes, its line end excluded. */
    readonly longestLine: number,
    /** Lines, the last one counted whether or not it ends. */
    readonly lines: number,
  ) {}

  /** Resolves once DATA has ended and is on disk; rejects (leaving no file) when it did not arrive whole. */
  static async spool(stream: SMTPServerDataStream, { keepNul = false } = {}): Promise<SpooledMessage> {
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-spool-'));
    const path = join(dir, 'message.eml');
    let hasNul = false;
    let size = 0;
    let longestLine = 0;
    let lines = 0;
    let line = 0;
    let endedWithCr = false;
    const keep = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (stream.sizeExceeded || (hasNul && !keepNul)) return callback();
        hasNul ||= chunk.includes(0);
        if (hasNul && !keepNul) return callback();
        // A line's length is the distance between LFs, less the CR of a CRLF.
        for (let at = 0, next = chunk.indexOf(LF); ; at = next + 1, next = chunk.indexOf(LF, at)) {
          line += (next < 0 ? chunk.length : next) - at;
          if (next < 0) break;
          lines++;
          const cr = next > 0 ? chunk[next - 1] === CR : endedWithCr;
          longestLine = Math.max(longestLine, line - (cr && line > 0 ? 1 : 0));
          line = 0;
        }
        // A line still open may yet end in CRLF: its CR is not counted until the LF says otherwise.
        longestLine = Math.max(longestLine, line - (chunk[chunk.length - 1] === CR ? 1 : 0));
        endedWithCr = chunk[chunk.length - 1] === CR;
        size += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(stream, keep, createWriteStream(path));
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    return new SpooledMessage(dir, path, hasNul, size, longestLine, lines + (line > 0 ? 1 : 0));
  }

  /** The message from disk, in chunks of `chunkBytes` (the file stream's 64 KiB by default). */
  stream(chunkBytes?: number): Readable {
    return createReadStream(this.path, { highWaterMark: chunkBytes });
  }

  read(): Promise<Buffer> {
    return readFile(this.path);
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
