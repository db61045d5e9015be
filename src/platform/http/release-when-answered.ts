import type { Request, Response } from 'express';

/**
 * Calls `release` (which must tolerate a second call) once the answer is sent or the connection
 * ends; at once when that already happened, since 'close' fires only once: a client gone while
 * its request was authenticated, or while it waited for a turn, would otherwise hold for good.
 */
export function releaseWhenAnswered(request: Request, response: Response, release: () => void): void {
  response.once('close', release);
  if (response.writableEnded || response.destroyed || request.destroyed) release();
}
