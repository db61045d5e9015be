import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { PreparedStatements } from '../platform/database/prepared-statements';
import { Reads } from '../platform/database/replica/reads';
import { CLAIMED_FIELD_COLUMNS, ClaimedFields } from './message-fields';

/** What composing a stored message reads of its row (the delivery claim's fields), and whether it was submitted as MIME. */
export interface StoredContent extends ClaimedFields {
  id: string;
  /** A message submitted over SMTP, whose MIME as received mimeChunks reads; false: composed from the fields. */
  submitted: boolean;
}

/**
 * How much of a submitted MIME one read takes. Small, because each stage of a read-back's pipeline
 * (the splitter's and joiner's object sides) may hold 16 chunks while its client does not read.
 */
const MIME_CHUNK_BYTES = 64 * 1024;
/**
 * How much of a range (an attachment's body) one read takes: its pipeline is two stages, each
 * holding a chunk or so while its client does not read, and fewer queries serve it faster.
 */
const RANGE_CHUNK_BYTES = 256 * 1024;

/** One row of message_attachments, in delivery order. */
export interface StoredPart {
  position: number;
  fileName: string;
  contentType: string;
  size: number;
  contentId: string | null;
  /** An inline attachment's bytes (when asked for); null for a stored one, whose bytes `attachmentId` names. */
  content: Buffer | null;
  attachmentId: string | null;
}

const CONTENT_COLUMNS = Object.entries(CLAIMED_FIELD_COLUMNS)
  .map(([name, column]) => `${column} AS "${name}"`)
  .join(', ');
const PART_COLUMNS = `ma.position, ma.file_name AS "fileName", ma.content_type AS "contentType", ma.size,
  ma.content_id AS "contentId", ma.attachment_id AS "attachmentId"`;

/** A message's body, attachments and MIME, to read back (docs/api.md#reading-back); the owner's id in every query. */
@Injectable()
export class MessageContentRepository {
  constructor(
    private readonly reads: Reads,
    private readonly statements: PreparedStatements,
  ) {}

  async content(userId: string, id: string): Promise<StoredContent | undefined> {
    return this.reads.findOne<StoredContent>(
      userId,
      `SELECT m.id, ${CONTENT_COLUMNS}, EXISTS (SELECT 1 FROM message_mime mm WHERE mm.message_id = m.id) AS submitted
       FROM messages m WHERE m.user_id = $1 AND m.id = $2`,
      [userId, id],
    );
  }

  /**
   * A submitted message's MIME, a chunk at a time, each read when the reader asks for it (mimeStream),
   * so that a request never holds the whole message, and one whose client stops reading holds a few chunks.
   */
  mimeStream(userId: string, id: string, start = 0, end = Number.MAX_SAFE_INTEGER): Readable {
    // One chunk ahead at most (Readable.from's object mode would read 16 ahead).
    const chunkBytes = start === 0 && end === Number.MAX_SAFE_INTEGER ? MIME_CHUNK_BYTES : RANGE_CHUNK_BYTES;
    return Readable.from(this.mimeChunks(userId, id, start, end, chunkBytes), { highWaterMark: 1 });
  }

  /** Bytes [start, end) of the MIME (all of it by default), a chunk at a time. */
  private async *mimeChunks(
    userId: string,
    id: string,
    start: number,
    end: number,
    chunkBytes: number,
  ): AsyncGenerator<Buffer> {
    for (let offset = start; offset < end; offset += chunkBytes) {
      const length = Math.min(chunkBytes, end - offset);
      const [row] = await this.reads.query<{ chunk: Buffer }>(
        userId,
        `SELECT substring(mm.content FROM $3::int FOR $4::int) AS chunk
         FROM message_mime mm JOIN messages m ON m.id = mm.message_id
         WHERE m.user_id = $1 AND mm.message_id = $2`,
        [userId, id, offset + 1, length],
      );
      if (!row || row.chunk.length === 0) return;
      yield row.chunk;
      if (row.chunk.length < length) return;
    }
  }

  /** What the first read-back of its MIME found (SubmittedContent), if it has been read back. */
  async reading<T>(userId: string, id: string): Promise<T | undefined> {
    const rows = await this.reads.query<{ reading: T | null }>(
      userId,
      `SELECT mm.reading FROM message_mime mm JOIN messages m ON m.id = mm.message_id
       WHERE m.user_id = $1 AND mm.message_id = $2`,
      [userId, id],
    );
    return rows[0]?.reading ?? undefined;
  }

  /** Keeps what a read-back found, for every later one (the first kept wins: all find the same). */
  async keepReading(userId: string, id: string, reading: unknown): Promise<void> {
    await this.statements.query(
      `UPDATE message_mime mm SET reading = $3::jsonb FROM messages m
       WHERE m.id = mm.message_id AND m.user_id = $1 AND mm.message_id = $2 AND mm.reading IS NULL`,
      [userId, id, JSON.stringify(reading)],
    );
  }

  /** Its attachments in delivery order; the bytes of inline ones only `withBytes`. */
  parts(userId: string, id: string, withBytes: boolean): Promise<StoredPart[]> {
    return this.reads.query<StoredPart>(
      userId,
      `SELECT ${PART_COLUMNS}, CASE WHEN $3 THEN ma.content END AS content
       FROM message_attachments ma JOIN messages m ON m.id = ma.message_id
       WHERE m.user_id = $1 AND ma.message_id = $2 ORDER BY ma.position`,
      [userId, id, withBytes],
    );
  }

  /** The attachment at `position`, with an inline one's bytes. */
  async part(userId: string, id: string, position: number): Promise<StoredPart | undefined> {
    return this.reads.findOne<StoredPart>(
      userId,
      `SELECT ${PART_COLUMNS}, ma.content
       FROM message_attachments ma JOIN messages m ON m.id = ma.message_id
       WHERE m.user_id = $1 AND ma.message_id = $2 AND ma.position = $3::int`,
      [userId, id, position],
    );
  }
}
