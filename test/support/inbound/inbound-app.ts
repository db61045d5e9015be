// The app the inbound specs run (docs/inbound.md): ROLE=all with the inbound listener on a free port, a
// database of its own, and a real DNS server on loopback (dns2) as DNS_SERVERS, where the tests
// publish the DKIM records that verify their domains and the SPF, DKIM and DMARC records that
// received mail is judged by.
import { randomUUID } from 'node:crypto';
import { InboundSmtpListener } from '../../../src/inbound/inbound-smtp.listener';
import { TestDnsServer } from '../dns-server';
import { bootTestApp, TestApp } from '../test-app';
import { bearer, newUserId } from '../tokens';

export const TIMEOUT = 120_000;

export interface InboundApp {
  t: TestApp;
  dns: TestDnsServer;
  /** The listener's port, once booted. */
  port(): number;
  /** Registers `name` for the user, publishes its DKIM record, verifies it and turns receiving on; the domain. */
  receivingDomain(userId: string, name?: string): Promise<any>;
  /** Registers and verifies `name` for the user, receiving off. */
  verifiedDomain(userId: string, name?: string): Promise<any>;
  list(userId: string, query?: Record<string, string | number>): Promise<any>;
  get(userId: string, id: string): Promise<any>;
  /** GET of a byte route (`/user/inbound/{id}/raw`, `…/attachments/{index}`): its status, headers and bytes. */
  bytes(userId: string, path: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;
  /**
   * For the calling describe: a user receiving at a domain of its own, and an address there
   * (`desk@`), made before its tests. Filled in by beforeAll.
   */
  mailbox(label: string): { userId: string; to: string };
}

/** A domain name no other test uses. */
export const newDomain = (label = 'in') => `${label}-${randomUUID().slice(0, 8)}.example.com`;

export function bootInboundApp(env: Record<string, string> = {}): InboundApp {
  const dns = new TestDnsServer();
  const t = {} as TestApp;
  beforeAll(async () => {
    const servers = await dns.start();
    Object.assign(
      t,
      await bootTestApp(
        { ROLE: 'all', INBOUND_SMTP_PORT: '0', DNS_SERVERS: servers, ...env },
        { isolatedDatabase: true },
      ),
    );
  }, TIMEOUT);
  afterAll(async () => {
    await t.close?.();
    await dns.stop();
  }, TIMEOUT);

  const verifiedDomain = async (userId: string, name = newDomain()) => {
    const created = (await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201)).body;
    const dkim = created.dnsRecords.find((record: { purpose: string }) => record.purpose === 'dkim');
    dns.publish(dkim.name, dkim.value);
    return (await t.http.post(`/domains/${created.id}/verify`).set(bearer(userId)).expect(200)).body;
  };
  return {
    t,
    dns,
    port: () => t.app.get(InboundSmtpListener).port!,
    verifiedDomain,
    receivingDomain: async (userId, name) => {
      const domain = await verifiedDomain(userId, name);
      expect(domain.status).toBe('verified');
      return (await t.http.patch(`/domains/${domain.id}`).set(bearer(userId)).send({ receiving: true }).expect(200))
        .body;
    },
    list: async (userId, query = {}) =>
      (await t.http.get('/user/inbound').query(query).set(bearer(userId)).expect(200)).body,
    get: async (userId, id) => (await t.http.get(`/user/inbound/${id}`).set(bearer(userId)).expect(200)).body,
    bytes: async (userId, path) => {
      const response = await t.http
        .get(path)
        .set(bearer(userId))
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
      return { status: response.status, headers: response.headers, body: response.body };
    },
    mailbox(label) {
      const mailbox = { userId: newUserId(label), to: '' };
      beforeAll(async () => {
        mailbox.to = `desk@${(await this.receivingDomain(mailbox.userId)).name}`;
      }, TIMEOUT);
      return mailbox;
    },
  };
}
