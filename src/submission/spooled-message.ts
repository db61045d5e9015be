import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { SMTPServerDataStream } from 'smtp-server';

/**
 * A message's DATA written to a file of its own as it arrives, so that a session holds a few
 * chunks in memory however large its message and however slowly it comes (SPEC §10: memory stays
 * bounded whatever clients send); the message is streamed through the parser, and read into
 * memory only to be stored, when its turn comes. Nothing past SIZE is written (smtp-server answers 552 for it), nor anything after a
 * NUL byte: such a message is refused whole.
 */
export class SpooledMessage {
  private constructor(
    private readonly dir: string,
    private readonly path: string,
    /** A NUL byte somewhere: no message may hold one (RFC 5322 §2.1, and PostgreSQL text cannot). */
    readonly hasNul: boolean,
  ) {}

  /** Resolves once DATA has ended and is on disk; rejects (leaving no file) when it did not arrive whole. */
  static async spool(stream: SMTPServerDataStream): Promise<SpooledMessage> {
    const dir = await mkdtemp(join(tmpdir(), 'mailroom-submission-'));
    const path = join(dir, 'message.eml');
    let hasNul = false;
    const keep = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (stream.sizeExceeded || hasNul) return callback();
        hasNul = chunk.includes(0);
        callback(null, hasNul ? undefined : chunk);
      },
    });
    try {
      await pipeline(stream, keep, createWriteStream(path));
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
    return new SpooledMessage(dir, path, hasNul);
  }

  stream(): Readable {
    return createReadStream(this.path);
  }

  read(): Promise<Buffer> {
    return readFile(this.path);
  }

  async remove(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
