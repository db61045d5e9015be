import dns2 from 'dns2';
import { isIP } from 'node:net';
import { freePort } from '../../src/platform/free-port';
import { bootTestApp, TestApp } from './test-app';

const { Packet } = dns2;
const SERVFAIL = 2;
const NXDOMAIN = 3;

/** How the server treats every query: answer from its records, fail, or never answer (a resolver's timeout). */
export type DnsMode = 'answer' | 'servfail' | 'silent';

/** An MX record: its preference and exchange (`.` for a null MX, RFC 7505). */
export interface MxRecord {
  preference: number;
  exchange: string;
}

/**
 * A real DNS server on loopback (dns2, UDP and TCP on one port) serving the TXT, MX, A and AAAA
 * records the test publishes. TXT values longer than 255 bytes go out split into
 * character-strings of 255, as a DNS provider stores them (RFC 1035 §3.3.14), so readers must
 * join them. A name with no record at all is NXDOMAIN; a name with records of other types only
 * answers a query for a type it lacks with no answer (NODATA), as a real server does.
 */
export class TestDnsServer {
  mode: DnsMode = 'answer';
  /** The names of the TXT queries seen, in order. */
  readonly queries: string[] = [];
  /** Names (and every name under them) whose queries are never answered, whatever the mode. */
  readonly silent = new Set<string>();
  private readonly records = new Map<string, string[][]>();
  private readonly mx = new Map<string, MxRecord[]>();
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

  /** Publishes A and AAAA records (by each address's family) at a name, replacing any there. */
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

  /** Publishes MX records at a domain, replacing any there; `publishMx(d, { preference: 0, exchange: '.' })` is a null MX. */
  publishMx(domain: string, ...records: MxRecord[]): void {
    this.mx.set(domain.toLowerCase(), records);
  }

  private exists(name: string): boolean {
    return this.records.has(name) || this.mx.has(name) || this.addresses.has(name);
  }

  private answersFor(name: string, type: number): object[] {
    const { TYPE, CLASS } = Packet;
    const key = name.toLowerCase();
    const common = { name, class: CLASS.IN, ttl: 60 };
    if (type === TYPE.TXT) return (this.records.get(key) ?? []).map((data) => ({ ...common, type, data }));
    if (type === TYPE.MX)
      return (this.mx.get(key) ?? []).map(({ preference, exchange }) => ({
        ...common,
        type,
        priority: preference,
        exchange,
      }));
    const family = type === TYPE.A ? 4 : type === TYPE.AAAA ? 6 : 0;
    return (this.addresses.get(key) ?? [])
      .filter((address) => isIP(address) === family)
      .map((address) => ({ ...common, type, address }));
  }

  private isSilent(name: string): boolean {
    return [...this.silent].some((silent) => name === silent || name.endsWith(`.${silent}`));
  }

  private handle(request: dns2.Packet, send: (response: dns2.Packet) => Promise<Buffer>): void {
    const [question] = request.questions;
    this.queries.push(question.name);
    if (this.mode === 'silent' || this.isSilent(question.name.toLowerCase())) return;
    const response = Packet.createResponseFromRequest(request);
    const name = question.name.toLowerCase();
    if (this.mode === 'servfail') response.header.rcode = SERVFAIL;
    else if (!this.exists(name)) response.header.rcode = NXDOMAIN;
    else response.answers.push(...(this.answersFor(question.name, question.type) as never[]));
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
