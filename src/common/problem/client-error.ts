import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import { problemBody } from './problem-details';

/**
 * Requests that Node's HTTP parser refuses never reach Express: by default Node answers them
 * with a bare status line. This answers them as problem+json too (SPEC §3): headers over Node's
 * limit (an oversized bearer token, say) get 431, any other unparsable request 400.
 */
export function answerParserErrorsAsProblems(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const detail = status === 431 ? 'The request headers are larger than the server accepts (16 KiB in all).' : 'The request could not be parsed as HTTP.';
    const body = JSON.stringify(problemBody(status, detail, randomUUID()));
    // end() alone would half-close: a client that keeps its side open would hold the socket
    // (and a graceful shutdown) for ever. Node's own handler destroys it too.
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
}
