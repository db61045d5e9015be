import type { Request } from 'express';
import { PayloadTooLargeError, RequestTimeoutError } from '../problem/problem.errors';

/**
 * How long a body is given to arrive whole once its reading began (BODY_READ_TIMEOUT_MS), for the
 * readers of bodies here; the application provides it from its configuration.
 */
export class BodyReadDeadline {
  constructor(readonly ms: number) {}
}

/**
 * Refuses a request body over `limit` bytes as soon as that is known, for the readers that would
 * not: body-parser and multer read an oversized body to its end before they report it. Throws
 * at once when Content-Length declares more; otherwise `race` fails the read when the bytes
 * received pass the limit. The 413 that follows closes the connection (ProblemDetailsFilter),
 * so the rest of the body is never read. With `deadlineMs`, a body not read whole that long after
 * its reading began fails with 408 (a body trickled a byte at a time would otherwise hold its
 * turn, and the memory of what came, for as long as its client likes), closed the same way.
 */
export class BodyLimit {
  constructor(
    private readonly request: Request,
    private readonly limit: number,
    private readonly detail: string,
    private readonly deadlineMs?: number,
  ) {
    if (Number(request.headers['content-length']) > limit) throw new PayloadTooLargeError(detail);
  }

  /**
   * Runs `read`, which must attach the body's reader synchronously (a 'data' listener attached
   * before it would let the body flow past it), and fails with 413 once more than the limit came,
   * or with 408 once the deadline has passed.
   */
  race<T>(read: () => Promise<T>): Promise<T> {
    const reading = read();
    let received = 0;
    let count: (chunk: Buffer) => void = () => undefined;
    let deadline: NodeJS.Timeout | undefined;
    const refused = new Promise<never>((_, reject) => {
      count = (chunk) => {
        received += chunk.length;
        if (received > this.limit) reject(new PayloadTooLargeError(this.detail));
      };
      if (this.deadlineMs !== undefined) {
        const seconds = Math.round(this.deadlineMs / 100) / 10;
        deadline = setTimeout(
          () =>
            reject(
              new RequestTimeoutError(
                `The body did not arrive within ${seconds} s (${received} bytes came); send it at once, and again.`,
              ),
            ),
          this.deadlineMs,
        );
      }
    });
    this.request.on('data', count);
    return Promise.race([reading, refused]).finally(() => {
      clearTimeout(deadline);
      this.request.off('data', count);
    });
  }
}
