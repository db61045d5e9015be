import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { boundHeapGrowth } from '../heap-growth';
import { Slots } from '../slots';
import { releaseWhenAnswered } from './release-when-answered';

/** Bodies up to this size never wait: every send and batch but those carrying large HTML, text or attachments. */
export const LARGE_BODY_BYTES = 1024 * 1024;
/**
 * Large bodies read and handled at once per process. The others wait unread in their sockets
 * (TCP holds their clients back), so that 16 concurrent 19 MiB batches do not hold 16 parsed
 * batches, and their copies on the way to PostgreSQL, in memory (docs/api.md#sending's RSS bound). One: an
 * accepted 19 MiB batch alone raised the peak by 113 MB, and two at once peaked at 303–323 MB
 * (README, Performance).
 */
const LARGE_BODIES_AT_ONCE = 1;

/**
 * Gives a request with a large body (declared over LARGE_BODY_BYTES, or of undeclared length) its
 * turn before its body is read, and holds the turn until its answer is sent: at most until its
 * body's deadline (BODY_READ_TIMEOUT_MS, JsonBodyInterceptor) and the work on it. Users waiting
 * are served in turn, so that one user's many large bodies do not keep another's behind them
 * all. A global guard between authentication and the rate limit: the caller is known before it waits (a request
 * without a valid token never waits, nor is read), and the rate limit counts it once its turn has
 * come, so a request whose budget ran out meanwhile is refused (429) without its body being read.
 */
@Injectable()
export class LargeBodyTurnGuard implements CanActivate {
  private readonly turns = new Slots(LARGE_BODIES_AT_ONCE);

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<Request & { user?: { id: string } }>();
    // Public routes (unsubscribe) read at most their own small limit and have no caller to wait
    // as: only an authenticated request may hold the turn, or anyone could, with a trickled body.
    if (request.user === undefined || !hasLargeBody(request)) return true;
    const response = context.switchToHttp().getResponse<Response>();
    // From its arrival to its answer, waiting included: a flood of them keeps the heap's growth bounded throughout.
    releaseWhenAnswered(request, response, boundHeapGrowth());
    const release = await this.turns.take(request.user.id);
    // Gone while it waited: nothing will be read, and the turn goes at once.
    releaseWhenAnswered(request, response, release);
    return true;
  }
}

/**
 * Multipart bodies are uploads, which keep their own two places (AttachmentUploadInterceptor);
 * a JSON route refuses one (415) without reading it.
 */
function hasLargeBody(request: Request): boolean {
  if (request.is('multipart/form-data')) return false;
  const declared = request.headers['content-length'];
  if (declared !== undefined) return Number(declared) > LARGE_BODY_BYTES;
  return request.headers['transfer-encoding'] !== undefined;
}
