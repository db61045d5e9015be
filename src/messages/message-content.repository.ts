import { Injectable } from '@nestjs/common';
import { PreparedStatements } from '../database/prepared-statements';
import { CLAIMED_FIELD_COLUMNS, ClaimedFields } from './message-fields';

/** What composing a stored message reads of its row (the delivery claim's fields), and its submitted MIME. */
export interface StoredContent extends ClaimedFields {
  id: string;
  /** A message submitted over SMTP: its MIME as received; null: composed from the fields. */
  mime: Buffer | null;
}

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

/** A message's body, attachments and MIME, to read back (SPEC §12); the owner's id in every query. */
@Injectable()
export class MessageContentRepository {
  constructor(private readonly statements: PreparedStatements) {}

  async content(userId: string, id: string): Promise<StoredContent | undefined> {
    const rows = await this.statements.query<StoredContent>(
      `SELECT m.id, ${CONTENT_COLUMNS}, (SELECT mm.content FROM message_mime mm WHERE mm.message_id = m.id) AS mime
       FROM messages m WHERE m.user_id = $1 AND m.id = $2`,
      [userId, id],
    );
    return rows[0];
  }

  /** Its attachments in delivery order; the bytes of inline ones only `withBytes`. */
  parts(userId: string, id: string, withBytes: boolean): Promise<StoredPart[]> {
    return this.statements.query<StoredPart>(
      `SELECT ${PART_COLUMNS}, CASE WHEN $3 THEN ma.content END AS content
       FROM message_attachments ma JOIN messages m ON m.id = ma.message_id
       WHERE m.user_id = $1 AND ma.message_id = $2 ORDER BY ma.position`,
      [userId, id, withBytes],
    );
  }

  /** The attachment at `position`, with an inline one's bytes. */
  async part(userId: string, id: string, position: number): Promise<StoredPart | undefined> {
    const rows = await this.statements.query<StoredPart>(
      `SELECT ${PART_COLUMNS}, ma.content
       FROM message_attachments ma JOIN messages m ON m.id = ma.message_id
       WHERE m.user_id = $1 AND ma.message_id = $2 AND ma.position = $3::int`,
      [userId, id, position],
    );
    return rows[0];
  }
}
