import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo, Socket } from 'node:net';

/** One request as the receiver saw it: the raw body is what a receiver verifies a signature over. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** Date.now() when the whole body had arrived. */
  receivedAt: number;
  /** The status the receiver answered, once it has; undefined while held or when the client left first. */
  answered?: number;
  /** True when the client closed the connection before the receiver answered (a timeout, a killed worker). */
  clientGone: boolean;
}

/** What the receiver answers to one request: a status after an optional delay. */
export interface ReceiverReply {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
  /** Bytes as they are (a Buffer may hold what is not UTF-8). */
  body?: string | Buffer;
}

/**
 * `attempt` counts the requests that carried this request's `webhook-id` (this one included), so
 * that a script can answer the first delivery of an event differently from its retries.
 */
export type ReplyScript = (request: ReceivedRequest, attempt: number) => ReceiverReply | Promise<ReceiverReply>;

const OK: ReplyScript = () => ({ status: 200, body: 'ok' });

/**
 * A real HTTP server on 127.0.0.1 for webhook tests. It records every request (method, path,
 * headers, raw body) and answers as the test scripts it: a status code, after a delay, or only
 * when a promise the script returned resolves (to hold a request open).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  reply: ReplyScript = OK;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly timers = new Set<{ timer: NodeJS.Timeout; wake: () => void }>();
  private port = 0;

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const received: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          rawBody: Buffer.concat(chunks).toString('utf8'),
          receivedAt: Date.now(),
          clientGone: false,
        };
        this.requests.push(received);
        res.on('close', () => {
          if (!res.writableEnded) received.clientGone = true;
        });
        const id = received.headers['webhook-id'];
        const attempt = this.requests.filter((r) =>
          id ? r.headers['webhook-id'] === id : r.path === received.path,
        ).length;
        void (async () => {
          let reply: ReceiverReply;
          try {
            reply = await this.reply(received, attempt);
          } catch {
            reply = { status: 599 };
          }
          if (reply.delayMs) await this.sleep(reply.delayMs);
          if (res.destroyed || res.writableEnded) return;
          res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
          res.end(reply.body ?? '');
          received.answered = reply.status;
        })();
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** Ends delays, drops open connections and closes the server. */
  async stop(): Promise<void> {
    for (const t of this.timers) {
      clearTimeout(t.timer);
      t.wake();
    }
    this.timers.clear();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** http://127.0.0.1:<port><path> */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  get listeningPort(): number {
    return this.port;
  }

  on(path: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  withId(webhookId: string): ReceivedRequest[] {
    return this.requests.filter((r) => r.headers['webhook-id'] === webhookId);
  }

  /**
   * Resolves once `predicate` holds; fails naming `what` and what did arrive once no request has
   * arrived for `timeoutMs`: a stream that a busy machine slows down is waited for while it flows.
   */
  async waitFor(predicate: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    let arrived = this.requests.length;
    let deadline = Date.now() + timeoutMs;
    while (!predicate()) {
      if (this.requests.length !== arrived) [arrived, deadline] = [this.requests.length, Date.now() + timeoutMs];
      if (Date.now() > deadline) {
        const seen = this.requests.map(
          (r) =>
            `${r.method} ${r.path} id=${String(r.headers['webhook-id'])} -> ${r.answered ?? (r.clientGone ? 'client gone' : 'unanswered')}`,
        );
        throw new Error(
          `The webhook receiver did not see ${what}, and nothing arrived for ${timeoutMs} ms; it saw:\n${seen.join('\n') || '(nothing)'}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
        wake: () => resolve(),
      };
      this.timers.add(entry);
    });
  }
}
