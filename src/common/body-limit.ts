import type { Request } from 'express';
import { PayloadTooLargeError } from './problem/problem.errors';

/**
 * Refuses a request body over `limit` bytes as soon as that is known, for the readers that would
 * not: body-parser and multer read an oversized body to its end before they report it. Throws
 * at once when Content-Length declares more; otherwise `race` fails the read when the bytes
 * received pass the limit. The 413 that follows closes the connection (ProblemDetailsFilter),
 * so the rest of the body is never read.
 */
export class BodyLimit {
  constructor(
    private readonly request: Request,
    private readonly limit: number,
    private readonly detail: string,
  ) {
    if (Number(request.headers['content-length']) > limit) throw new PayloadTooLargeError(detail);
  }

  /**
   * Runs `read`, which must attach the body's reader synchronously (a 'data' listener attached
   * before it would let the body flow past it), and fails with 413 once more than the limit came.
   */
  race<T>(read: () => Promise<T>): Promise<T> {
    const reading = read();
    let received = 0;
    let count: (chunk: Buffer) => void = () => undefined;
    const overLimit = new Promise<never>((_, reject) => {
      count = (chunk) => {
        received += chunk.length;
        if (received > this.limit) reject(new PayloadTooLargeError(this.detail));
      };
    });
    this.request.on('data', count);
    return Promise.race([reading, overLimit]).finally(() => this.request.off('data', count));
  }
}
