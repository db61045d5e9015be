import { finished } from 'node:stream/promises';
import type { Request } from 'express';
import { BodyLimit } from '../../platform/http/body-limit';
import { MalformedBodyError } from '../../platform/problem/problem.errors';

/** Room for RFC 8058's `List-Unsubscribe=One-Click`, as a form or as multipart, many times over. */
export const MAX_UNSUBSCRIBE_BODY_BYTES = 1024;

/**
 * Reads an unsubscribe's body to its end and drops it: its content means nothing (RFC 8058 asks
 * for one, mail clients send it in any media type), but reading it bounded means a body over the
 * limit is a 413 before anything changes.
 */
export async function discardBody(request: Request): Promise<void> {
  const limit = new BodyLimit(
    request,
    MAX_UNSUBSCRIBE_BODY_BYTES,
    `The body is larger than ${MAX_UNSUBSCRIBE_BODY_BYTES} bytes; an unsubscribe needs none.`,
  );
  if (request.readableEnded) return;
  await limit.race(async () => {
    const ended = finished(request);
    request.resume();
    await ended.catch(() => {
      throw new MalformedBodyError('The body could not be read.');
    });
  });
}
