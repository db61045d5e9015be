import { AddressInfo, createConnection, createServer, Server, Socket } from 'node:net';
import { Transform } from 'node:stream';

/**
 * A TCP proxy in front of a real server, for failures PostgreSQL itself never produces: a
 * connection cut without a goodbye (a network drop), a host that accepts and never answers, or
 * one that stops answering on connections already open.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private blackHole = false;
  private frozen = false;
  private constructor(private readonly server: Server) {}

  static async listen(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (client) => proxy.accept(client, target));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Destroys every connection through the proxy, with no message to either side. */
  cutAll(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  /** From now on, connections are accepted and then nothing ever comes back. */
  swallowNewConnections(value = true): void {
    this.blackHole = value;
  }

  /** From now on, nothing passes either way on any connection, open or new, until unfrozen: a host gone silent. */
  freeze(value = true): void {
    this.frozen = value;
  }

  async close(): Promise<void> {
    this.cutAll();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket, target: { host: string; port: number }): void {
    this.track(client);
    if (this.blackHole) return;
    const upstream = this.track(createConnection(target));
    client.pipe(this.gate()).pipe(upstream).pipe(this.gate()).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  /** Passes bytes on, or drops them while frozen. */
  private gate(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => done(null, this.frozen ? undefined : chunk),
    });
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => this.sockets.delete(socket));
    return socket;
  }
}
