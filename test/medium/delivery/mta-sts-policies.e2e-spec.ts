// MtaStsPolicies against real parts (docs/delivery-and-deliverability.md#direct-delivery): the
// `_mta-sts` TXT record and the policy host's address from a dns2 server given as DNS_SERVERS, the
// policy from a node:https server on port 443 of a loopback address of its own, with certificates
// from a test CA that only MTA_STS_CA_FILE makes trusted.
import { readFileSync } from 'node:fs';
import { createServer, Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createSecureContext, SecureContext } from 'node:tls';
import { DirectTrust } from '../../../src/delivery/direct/direct-trust';
import { MtaStsPolicies, MtaStsPoliciesOptions } from '../../../src/delivery/direct/mta-sts-policies';
import { MAX_POLICY_BYTES } from '../../../src/delivery/direct/mta-sts-policy-fetch';
import { TestDnsServer } from '../../support/dns-server';
import { cannotListen, randomLoopbackAddress } from '../../support/loopback-address';
import { noticeSkip } from '../../support/skip-notice';
import { OPENSSL_MISSING, TestCa } from '../../support/test-ca';

const ADDRESS = randomLoopbackAddress();
const SKIPPED = OPENSSL_MISSING ?? cannotListen(ADDRESS, 443);
if (SKIPPED) noticeSkip(`mta-sts-policies: MTA-STS policies over real HTTPS SKIPPED: ${SKIPPED}`);
const itWithHttps = SKIPPED ? it.skip : it;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A policy file as RFC 8461 §3.2 writes it. */
const policyFile = (mode: string, maxAge: number, ...mx: string[]) =>
  ['version: STSv1', `mode: ${mode}`, ...mx.map((host) => `mx: ${host}`), `max_age: ${maxAge}`, ''].join('\r\n');

/** Answers as a policy host should: 200, text/plain, the body with its Content-Length. */
const serve =
  (body: string | Buffer, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    const length = String(Buffer.byteLength(body));
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': length, ...headers });
    res.end(body);
  };

/** A valid enforce policy padded with lines mailauth ignores to exactly `size` bytes. */
function policyOfSize(size: number): Buffer {
  const head = policyFile('enforce', 86400, 'mx.big.test');
  const padLine = (n: number) => `x-padding: ${'a'.repeat(n - 'x-padding: '.length - 2)}\r\n`;
  let body = head;
  while (size - body.length > 1000) body += padLine(1000);
  body += padLine(size - body.length);
  const bytes = Buffer.from(body);
  if (bytes.length !== size) throw new Error(`padding made ${bytes.length} bytes, not ${size}`);
  return bytes;
}

describe('MtaStsPolicies with real DNS and HTTPS', () => {
  const dns = new TestDnsServer();
  let ca: TestCa;
  let rogueCa: TestCa;
  let server: Server;
  let dnsServer: string;
  /** The handler of each policy host (the Host header), and the requests each received. */
  const handlers = new Map<string, Handler>();
  const requests = new Map<string, number>();
  const requestsTo = (host: string) => requests.get(host) ?? 0;

  /** Publishes a domain's TXT id and, for its policy host, an address on our server and a handler. */
  function publish(domain: string, id: string, handler?: Handler): void {
    dns.publish(`_mta-sts.${domain}`, `v=STSv1; id=${id}`);
    dns.publishAddress(`mta-sts.${domain}`, ADDRESS);
    if (handler) handlers.set(`mta-sts.${domain}`, handler);
  }

  const policies = (options: Partial<MtaStsPoliciesOptions> = {}) =>
    new MtaStsPolicies({
      dnsServers: [dnsServer],
      trust: ca && new DirectTrust(readFileSync(ca.certPath)),
      fetchTimeoutMs: 5_000,
      ...options,
    });

  beforeAll(async () => {
    dnsServer = await dns.start();
    if (SKIPPED) return;
    [ca, rogueCa] = await Promise.all([TestCa.create(), TestCa.create('Nobody Trusts This CA')]);
    const trusted = await ca.issue(
      ...[
        'enforce',
        'testing',
        'none',
        'cached',
        'expiring',
        'renamed',
        'max',
        'chunked',
        'moved',
        'octets',
        'slow',
      ].map((name) => `mta-sts.${name}.test`),
    );
    const rogue = await rogueCa.issue('mta-sts.rogue.test');
    const rogueContext: SecureContext = createSecureContext({ cert: rogue.cert, key: rogue.key });
    server = createServer(
      {
        cert: trusted.cert,
        key: trusted.key,
        // The rogue host's certificate is valid for its name but signed by a CA we do not trust.
        SNICallback: (name, done) => done(null, name === 'mta-sts.rogue.test' ? rogueContext : undefined),
      },
      (req, res) => {
        const host = req.headers.host ?? '';
        requests.set(host, requestsTo(host) + 1);
        const handler = handlers.get(host);
        if (req.url !== '/.well-known/mta-sts.txt' || !handler) return void res.writeHead(404).end();
        handler(req, res);
      },
    );
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(443, ADDRESS, resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server?.closeAllConnections();
    await dns.stop();
    ca?.remove();
    rogueCa?.remove();
  });

  itWithHttps('reads enforce, testing and none policies, the policy host found through DNS_SERVERS', async () => {
    publish('enforce.test', 'e1', serve(policyFile('enforce', 86400, 'mx1.enforce.test', '*.mx.enforce.test')));
    publish('testing.test', 't1', serve(policyFile('testing', 3600, 'mx.testing.test')));
    publish('none.test', 'n1', serve(policyFile('none', 60)));
    const sut = policies();

    expect(await sut.policyFor('enforce.test')).toEqual({
      mode: 'enforce',
      mx: ['mx1.enforce.test', '*.mx.enforce.test'],
      maxAge: 86400,
      id: 'e1',
    });
    expect(await sut.policyFor('testing.test')).toEqual({
      mode: 'testing',
      mx: ['mx.testing.test'],
      maxAge: 3600,
      id: 't1',
    });
    expect(await sut.policyFor('none.test')).toEqual({ mode: 'none', mx: [], maxAge: 60, id: 'n1' });
    expect(dns.queries).toEqual(expect.arrayContaining(['_mta-sts.enforce.test', 'mta-sts.enforce.test']));
  });

  it('is mode none without error, and fetches nothing, for a domain with no TXT record', async () => {
    const sut = policies({ trust: undefined });
    expect(await sut.policyFor('unpublished.test')).toEqual({ mode: 'none', mx: [] });
    expect(requestsTo('mta-sts.unpublished.test')).toBe(0);
  });

  itWithHttps('fetches a policy once while its TXT id is unchanged, and again when the id changes', async () => {
    publish('cached.test', 'one', serve(policyFile('testing', 86400, 'mx.cached.test')));
    const sut = policies();
    await sut.policyFor('cached.test');
    expect(await sut.policyFor('cached.test')).toMatchObject({ mode: 'testing', id: 'one' });
    expect(requestsTo('mta-sts.cached.test')).toBe(1);

    publish('cached.test', 'two', serve(policyFile('enforce', 86400, 'mx.cached.test')));
    expect(await sut.policyFor('cached.test')).toMatchObject({ mode: 'enforce', id: 'two' });
    expect(requestsTo('mta-sts.cached.test')).toBe(2);
  });

  itWithHttps('fetches a policy again once its max_age has passed, the id unchanged', async () => {
    publish('expiring.test', 'one', serve(policyFile('enforce', 600, 'mx.expiring.test')));
    let now = Date.now();
    const sut = policies({ clock: () => now });
    await sut.policyFor('expiring.test');
    now += 599_000;
    await sut.policyFor('expiring.test');
    expect(requestsTo('mta-sts.expiring.test')).toBe(1);
    now += 1_000;
    await sut.policyFor('expiring.test');
    expect(requestsTo('mta-sts.expiring.test')).toBe(2);
  });

  itWithHttps('keeps the cached policy when the host later fails (RFC 8461 §5.1)', async () => {
    publish('renamed.test', 'one', serve(policyFile('enforce', 86400, 'mx.renamed.test')));
    const sut = policies();
    const first = await sut.policyFor('renamed.test');
    publish('renamed.test', 'two', (_req, res) => void res.writeHead(500).end());
    expect(await sut.policyFor('renamed.test')).toEqual(first);
    expect(requestsTo('mta-sts.renamed.test')).toBe(2);
  });

  itWithHttps('has no policy, with the reason, when the certificate is from a CA not trusted', async () => {
    publish('rogue.test', 'r1', serve(policyFile('enforce', 86400, 'mx.rogue.test')));
    const policy = await policies().policyFor('rogue.test');
    expect(policy).toMatchObject({ mode: 'none', mx: [], id: 'r1' });
    expect(policy.error).toMatch(/certificate/i);
    expect(requestsTo('mta-sts.rogue.test')).toBe(0);
  });

  itWithHttps('trusts the test CA only through MTA_STS_CA_FILE', async () => {
    publish('enforce.test', 'e1', serve(policyFile('enforce', 86400, 'mx1.enforce.test')));
    const policy = await policies({ trust: undefined }).policyFor('enforce.test');
    expect(policy).toMatchObject({ mode: 'none', error: expect.stringMatching(/certificate/i) });
  });

  itWithHttps(
    `reads a policy of exactly ${MAX_POLICY_BYTES} bytes and refuses one byte more, by its Content-Length`,
    async () => {
      publish('max.test', 'at-max', serve(policyOfSize(MAX_POLICY_BYTES)));
      const sut = policies();
      expect(await sut.policyFor('max.test')).toMatchObject({ mode: 'enforce', mx: ['mx.big.test'] });

      publish('max.test', 'past-max', serve(policyOfSize(MAX_POLICY_BYTES + 1)));
      expect(await sut.policyFor('max.test')).toMatchObject({
        mode: 'enforce',
        id: 'at-max',
      });
      const fresh = await policies().policyFor('max.test');
      expect(fresh).toMatchObject({ mode: 'none', error: expect.stringContaining(`over ${MAX_POLICY_BYTES} bytes`) });
    },
  );

  itWithHttps('refuses a body one byte over the cap when it comes chunked, without a Content-Length', async () => {
    const body = policyOfSize(MAX_POLICY_BYTES + 1);
    publish('chunked.test', 'c1', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write(body.subarray(0, 40_000));
      res.end(body.subarray(40_000));
    });
    const policy = await policies().policyFor('chunked.test');
    expect(policy).toMatchObject({ mode: 'none', error: expect.stringContaining(`over ${MAX_POLICY_BYTES} bytes`) });
  });

  itWithHttps('does not follow a redirect (RFC 8461 §3.3)', async () => {
    publish(
      'moved.test',
      'm1',
      (_req, res) =>
        void res.writeHead(301, { location: 'https://mta-sts.enforce.test/.well-known/mta-sts.txt' }).end(),
    );
    publish('enforce.test', 'e1', serve(policyFile('enforce', 86400, 'mx1.enforce.test')));
    const before = requestsTo('mta-sts.enforce.test');
    const policy = await policies().policyFor('moved.test');
    expect(policy).toMatchObject({ mode: 'none', error: expect.stringContaining('HTTP 301 (redirect not followed)') });
    expect(requestsTo('mta-sts.moved.test')).toBe(1);
    expect(requestsTo('mta-sts.enforce.test')).toBe(before);
  });

  itWithHttps('refuses a policy served as another media type than text/plain', async () => {
    publish(
      'octets.test',
      'o1',
      serve(policyFile('enforce', 86400, 'mx.octets.test'), { 'content-type': 'application/octet-stream' }),
    );
    const policy = await policies().policyFor('octets.test');
    expect(policy).toMatchObject({ mode: 'none', error: expect.stringContaining('application/octet-stream') });
  });

  itWithHttps('gives up on a host that never answers after fetchTimeoutMs', async () => {
    const held: ServerResponse[] = [];
    publish('slow.test', 's1', (_req, res) => void held.push(res));
    const started = performance.now();
    // Long enough for the look-up, the connection and the TLS handshake on a busy machine, so
    // that what times out is the wait for the answer (the request arrived).
    const policy = await policies({ fetchTimeoutMs: 2_000 }).policyFor('slow.test');
    const elapsed = performance.now() - started;
    expect(policy).toMatchObject({ mode: 'none', error: expect.stringContaining('timed out') });
    expect(held).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(10_000);
    held.forEach((res) => res.destroy());
  });
});
