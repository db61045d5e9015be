import dns2 from 'dns2';
import { freePort } from '../../src/platform/free-port';
import { bootTestApp, TestApp } from './test-app';

const { Packet } = dns2;
const SERVFAIL = 2;
const NXDOMAIN = 3;

/** How the server treats every query: answer from its records, fail, or never answer (a resolver's timeout). */
export type DnsMode = 'answer' | 'servfail' | 'silent';

/**
 * A real DNS server on loopback (dns2, UDP and TCP on one port) serving the TXT (and A) records the test
 * publishes. Values longer than 255 bytes go out split into character-strings of 255, as a DNS
 * provider stores them (RFC 1035 §3.3.14), so readers must join them.
 */
export class TestDnsServer {
  mode: DnsMode = 'answer';
  /** The names of the TXT queries seen, in order. */
  readonly queries: string[] = [];
  /** Names (and every name under them) whose queries are never answered, whatever the mode. */
  readonly silent = new Set<string>();
  private readonly records = new Map<string, string[][]>();
  private readonly addresses = new Map<string, string[]>();
  private readonly server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => this.handle(request, send),
  });
  private port = 0;
  private stopped = false;

  /** Starts it; resolves to its address as DNS_SERVERS takes it. */
  async start(): Promise<string> {
    this.port = await freePort();
    await this.server.listen({
      udp: { port: this.port, address: '127.0.0.1' },
      tcp: { port: this.port, address: '127.0.0.1' },
    });
    return this.address;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** Stops it; a second call (a test that stopped it early) does nothing. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.server.close();
  }

  /** Publishes TXT records at a name, replacing any there. */
  publish(name: string, ...values: string[]): void {
    this.records.set(name.toLowerCase(), values.map(splitInto255));
  }

  /** Publishes A records (IPv4 addresses) at a name, replacing any there. */
  publishAddress(name: string, ...ips: string[]): void {
    this.addresses.set(name.toLowerCase(), ips);
  }

  /** Never answers queries for `name` or any name under it (a sender's broken DNS). */
  silence(name: string): void {
    this.silent.add(name.toLowerCase());
  }

  unpublish(name: string): void {
    this.records.delete(name.toLowerCase());
  }

  private isSilent(name: string): boolean {
    return [...this.silent].some((silent) => name === silent || name.endsWith(`.${silent}`));
  }

  private handle(request: dns2.Packet, send: (response: dns2.Packet) => Promise<Buffer>): void {
    const [question] = request.questions;
    this.queries.push(question.name);
    if (this.mode === 'silent' || this.isSilent(question.name.toLowerCase())) return;
    const response = Packet.createResponseFromRequest(request);
    const address = question.type === Packet.TYPE.A ? this.addresses.get(question.name.toLowerCase()) : undefined;
    const found = question.type === Packet.TYPE.TXT ? this.records.get(question.name.toLowerCase()) : undefined;
    if (this.mode === 'servfail') response.header.rcode = SERVFAIL;
    else if (address)
      for (const ip of address)
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.A,
          class: Packet.CLASS.IN,
          ttl: 60,
          address: ip,
        } as never);
    else if (!found) response.header.rcode = NXDOMAIN;
    else
      for (const data of found)
        response.answers.push({
          name: question.name,
          type: Packet.TYPE.TXT,
          class: Packet.CLASS.IN,
          ttl: 60,
          data,
        } as never);
    void send(response);
  }
}

function splitInto255(value: string): string[] {
  const bytes = Buffer.from(value);
  const strings: string[] = [];
  for (let i = 0; i < bytes.length; i += 255) strings.push(bytes.subarray(i, i + 255).toString());
  return strings;
}

/**
 * For the describe it is called in: an app whose DNS_SERVERS is a TestDnsServer of its own, both
 * started before its tests and stopped after them. `t` is filled in by beforeAll.
 */
export function appWithDns(): { t: TestApp; dns: TestDnsServer } {
  const dns = new TestDnsServer();
  const t = {} as TestApp;
  beforeAll(async () => {
    Object.assign(t, await bootTestApp({ DNS_SERVERS: await dns.start() }));
  });
  afterAll(async () => {
    await t.close?.();
    await dns.stop();
  });
  return { t, dns };
}
