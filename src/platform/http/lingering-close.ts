import type { Request, Response } from 'express';

// Long enough for the client to read the answer; what it sends meanwhile is read and dropped.
const LINGER_MS = 1000;

/**
 * Ends the connection of a request answered before its body came in full, so that the rest of
 * the body is never read, without losing the answer: Node closes a `Connection: close` socket
 * the moment the answer is written, and a close while the client is still sending resets the
 * connection, which can discard the answer before the client reads it. So the server half-closes,
 * keeps reading for a moment, then closes (RFC 9112 §9.6, "lingering close").
 */
export function closeAfterAnswer(request: Request, response: Response): void {
  response.setHeader('Connection', 'close');
  const socket = request.socket;
  socket.destroySoon = () => {
    socket.end();
    request.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
