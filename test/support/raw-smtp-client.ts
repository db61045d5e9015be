import { connect, Socket } from 'node:net';

/** A raw SMTP client: writes what it is told, when it is told, and collects the server's replies. */
export class RawSmtpClient {
  private readonly socket: Socket;
  private buffer = '';
  closed = false;

  /** `localAddress`: another loopback address (127.0.0.2…) to connect from, for limits kept by client address. */
  constructor(port: number, localAddress?: string) {
    this.socket = connect({ host: '127.0.0.1', port, ...(localAddress && { localAddress }) });
    this.socket.setEncoding('utf8');
    this.socket.on('data', (chunk: string) => (this.buffer += chunk));
    this.socket.on('close', () => (this.closed = true));
    this.socket.on('error', () => (this.closed = true));
  }

  /** Waits for the server's greeting: a client that talks before it is turned away (421, "You talk too soon"). */
  async greeted(): Promise<void> {
    await this.waitFor((c) => c.replies().length > 0 || c.closed, 'the greeting');
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Everything the server sent, as text. */
  received(): string {
    return this.buffer;
  }

  /** The final lines of complete replies received so far (`250 …`, not `250-…`). */
  replies(): string[] {
    return this.buffer.split('\r\n').filter((l) => /^\d{3} /.test(l));
  }

  async waitFor(what: (client: RawSmtpClient) => boolean, label: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!what(this)) {
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for ${label}; got ${JSON.stringify(this.buffer.slice(-500))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  destroy(): void {
    this.socket.destroy();
  }
}
