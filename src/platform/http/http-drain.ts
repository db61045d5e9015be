import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { RETRY_AFTER_SECONDS } from '../problem/problem-details';
import { sendProblem } from '../problem/send-problem';

/**
 * Graceful HTTP shutdown that holds under kept-alive load (docs/scaling.md). Node's `server.close()`
 * keeps serving requests on kept-alive sockets, and destroys sockets it thinks idle while a
 * client's next request is already on the wire (a reset the client cannot tell from a lost
 * answer). So from `drain()` on every new request, on any socket, is refused with a 503 and
 * `Connection: close`; requests in flight finish and close their socket; the listener closes
 * once no connection is left (or after a short linger), so that nobody is reset.
 *
 * It runs beside the workers' own drains (which stop them taking jobs), and Nest closes the server
 * only after it (beforeApplicationShutdown): Node's `server.close()` resets idle sockets.
 */
export class HttpDrain implements BeforeApplicationShutdown {
  private drained?: Promise<void>;
  private readonly inFlight = new Set<ServerResponse>();
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private onChange?: () => void;

  /** Starts counting the server's connections; call before it listens. */
  attach(server: Server): void {
    this.server = server;
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.onChange?.();
      });
    });
  }

  /** Express middleware, first after the request id: counts requests in flight and refuses new ones while draining. */
  readonly middleware = (request: Request, response: Response, next: NextFunction): void => {
    if (this.drained) return void refuse(request, response);
    this.inFlight.add(response);
    response.once('close', () => {
      this.inFlight.delete(response);
      this.onChange?.();
    });
    next();
  };

  /**
   * Refuses new requests from now on, waits for those in flight (at most `deadlineMs`) and for
   * clients to leave (at most `lingerMs` after that), then closes the listener and every socket.
   */
  drain(limits?: { lingerMs?: number; deadlineMs?: number }): Promise<void> {
    this.drained ??= this.drainOnce(limits);
    return this.drained;
  }

  /** Nest closes the HTTP server after this; an application that was never drained closes at once. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.drained;
  }

  private async drainOnce({ lingerMs = 2000, deadlineMs = 10_000 } = {}): Promise<void> {
    for (const response of this.inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
    const started = Date.now();
    let lingerFrom: number | undefined;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => this.onChange?.(), 100);
      this.onChange = () => {
        const now = Date.now();
        if (this.inFlight.size === 0) lingerFrom ??= now;
        const done =
          this.sockets.size === 0 ||
          (lingerFrom !== undefined && now - lingerFrom >= lingerMs) ||
          now - started >= deadlineMs;
        if (!done) return;
        clearInterval(timer);
        this.onChange = undefined;
        resolve();
      };
      this.onChange();
    });
    this.server?.close();
    // What is left is idle, still sending its headers, or past the deadline.
    this.server?.closeAllConnections();
  }
}

function refuse(request: Request, response: Response): void {
  sendProblem(request, response, 503, 'The server is shutting down; send the request again.', {
    Connection: 'close',
    'Retry-After': String(RETRY_AFTER_SECONDS),
  });
}
