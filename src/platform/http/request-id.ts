import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const ACCEPTABLE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives every request an id before anything else runs, so that even a body the parser rejects
 * gets one in its problem body. A caller's own `X-Request-Id` is kept when it is sane.
 */
export function assignRequestId(request: Request, response: Response, next: NextFunction): void {
  const given = request.header('x-request-id');
  const id = given && ACCEPTABLE_REQUEST_ID.test(given) ? given : randomUUID();
  request.id = id;
  response.setHeader('X-Request-Id', id);
  next();
}
