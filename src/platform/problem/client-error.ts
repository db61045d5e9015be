import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { problemBody } from './problem-details';

/**
 * Requests that Node's HTTP parser refuses never reach Express: by default Node answers them
 * with a bare status line. This answers them as problem+json too (docs/api.md#errors): headers over Node's
 * limit (an oversized bearer token, say) get 431, any other unparsable request 400. A HEAD
 * request gets the same head and no body (RFC 9110 §9.3.2).
 */
export function answerParserErrorsAsProblems(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const detail =
      status === 431
        ? 'The request headers are larger than the server accepts (16 KiB in all).'
        : 'The request could not be parsed as HTTP.';
    const body = JSON.stringify(problemBody(status, detail, randomUUID()));
    const head =
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    // end() alone would half-close: a client that keeps its side open would hold the socket
    // (and a graceful shutdown) for ever. Node's own handler destroys it too.
    socket.end(isHeadRequest(error.rawPacket) ? head : head + body, () => socket.destroy());
  });
}

/**
 * Node's parser has not told the method when it fails, so it is read from the bytes it failed
 * in, which begin with the request line whenever the request came in one read (a request over
 * 16 KiB split across reads before its line ended is answered as a GET would be).
 */
function isHeadRequest(rawPacket: Buffer | undefined): boolean {
  return rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ';
}
