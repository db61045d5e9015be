import type { Readable } from 'node:stream';
import { StreamableFile } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { HeaderObject } from '@nestjs/swagger';
import { create as contentDisposition } from 'content-disposition';
import type { Response } from 'express';

/** Bytes to hand out as a file: a mail's attachment or the mail itself. */
export interface Download {
  /** A stream for a large message read back as its client reads it (no Content-Length then). */
  bytes: Buffer | Readable;
  /** As stored: sent exactly so, no charset added. */
  contentType: string;
  /** null: the file has no name of its own. */
  fileName: string | null;
}

/**
 * Answers with bytes a user's mail carries (docs/api.md#reading-back), which may be hostile (an HTML attachment,
 * a received mail): always a download, never rendered in our origin. `attachment` with the name as
 * RFC 6266 writes it (an ASCII fallback and `filename*` for the rest), no type sniffing, and a
 * sandbox should a browser render it anyway. Headers set on Node's response itself, since
 * Express's `set` would add a charset of its guessing to a text type.
 */
export function sendBytes(response: Response, { bytes, contentType, fileName }: Download): StreamableFile {
  response.setHeader('Content-Type', contentType);
  response.setHeader('Content-Disposition', fileName === null ? 'attachment' : contentDisposition(fileName));
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Content-Security-Policy', 'sandbox');
  return Buffer.isBuffer(bytes) ? new StreamableFile(bytes, { length: bytes.length }) : new StreamableFile(bytes);
}

const STRING = { schema: { type: 'string' } } as const;
/** What every byte answer carries (docs/api.md#reading-back), documented once. */
const BYTE_HEADERS: Record<string, HeaderObject> = {
  'Content-Disposition': { description: '`attachment`, with the file name as RFC 6266 writes it', ...STRING },
  'X-Content-Type-Options': { description: '`nosniff`', ...STRING },
  'Content-Security-Policy': { description: '`sandbox`', ...STRING },
};

/** The 200 of a route answering with sendBytes: `mediaType` bytes with the headers above. */
export const ApiBytesResponse = (mediaType: string, description: string) =>
  ApiOkResponse({
    description,
    headers: BYTE_HEADERS,
    content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
  });
