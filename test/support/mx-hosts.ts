import { createServer, Server, Socket } from 'node:net';
import { freePort } from '../../src/platform/free-port';
import { TestDnsServer } from './dns-server';
import { selfSignedCertificate } from './test-ca';
import { SinkTls, SmtpSink } from './smtp-sink';

/**
 * Mail servers for direct delivery on loopback: a real DNS server naming them, and each MX host a
 * real SMTP server (SmtpSink) on its own loopback address (127.0.0.2, 127.0.0.3, …), all on one
 * port, as DIRECT_MX_PORT is one port.
 */
export class TestMxHosts {
  readonly dns = new TestDnsServer();
  port = 0;
  private readonly sinks: SmtpSink[] = [];
  private readonly servers: Server[] = [];
  private nextAddress = 2;

  async start(): Promise<void> {
    await this.dns.start();
    this.port = await freePort();
  }

  /** An SMTP server at the next loopback address, published in DNS as `name`. */
  async host(name: string, tls?: SinkTls): Promise<SmtpSink> {
    const address = this.address(name);
    const sink = new SmtpSink(tls);
    await sink.start(this.port, address);
    this.sinks.push(sink);
    return sink;
  }

  /** A bare TCP server at the next loopback address, published as `name`: each connection handed to `serve` (a server no SmtpSink can play). */
  async raw(name: string, serve: (socket: Socket) => void): Promise<void> {
    const server = createServer(serve);
    await new Promise<void>((resolve) => server.listen(this.port, this.address(name), resolve));
    this.servers.push(server);
  }

  /** Publishes `name` at the next loopback address, where nothing listens (connections to it are refused); returns the address, for a test's own server. */
  deadHost(name: string): string {
    return this.address(name);
  }

  /** The settings of an app delivering directly to these hosts: SMTP_URL=direct through this DNS server and port. */
  directDeliveryEnv(): Record<string, string> {
    return {
      SMTP_URL: 'direct',
      DNS_SERVERS: this.dns.address,
      DIRECT_MX_PORT: String(this.port),
      DELIVERY_HELO_NAME: 'out.mailroom.test',
    };
  }

  async stop(): Promise<void> {
    await Promise.all(this.sinks.map((sink) => sink.stop()));
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
    await this.dns.stop();
  }

  private address(name: string): string {
    const address = `127.0.0.${this.nextAddress++}`;
    this.dns.publishAddress(name, address);
    return address;
  }
}

/**
 * A self-signed certificate valid for the names given: it is its own CA (MTA_STS_CA_FILE).
 * Undefined when openssl is not installed (the caller skips, saying so).
 */
export async function certificateFor(
  names: string[],
): Promise<{ dir: string; certPath: string; key: Buffer; cert: Buffer } | undefined> {
  try {
    return await selfSignedCertificate(names.map((name) => `DNS:${name}`));
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT') return undefined;
    throw error;
  }
}
