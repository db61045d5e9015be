// MTA-STS through the whole app (docs/delivery-and-deliverability.md#direct-delivery): SMTP_URL=direct
// with the real MtaStsPolicies, the `_mta-sts` TXT record and the policy host's address served by a
// dns2 server given as DNS_SERVERS, each policy from a node:https server on port 443 of a loopback
// address of its own, certificates from a test CA that only MTA_STS_CA_FILE makes trusted; the MX
// hosts are real SMTP servers offering STARTTLS, one with a certificate valid for another name.
import { createServer, Server } from 'node:https';
import { sendBody } from '../../support/factories';
import { cannotListen, randomLoopbackAddress } from '../../support/loopback-address';
import type { DeliveredMessage } from '../../support/delivery/delivered-message';
import { TestMxHosts } from '../../support/mx-hosts';
import { noticeSkip } from '../../support/skip-notice';
import type { SmtpSink } from '../../support/smtp-sink';
import { OPENSSL_MISSING, TestCa } from '../../support/test-ca';
import { bootTestApp, TestApp } from '../../support/test-app';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const ADDRESS = randomLoopbackAddress();
const SKIPPED = OPENSSL_MISSING ?? cannotListen(ADDRESS, 443);
if (SKIPPED) noticeSkip(`direct-mta-sts-app: MTA-STS through the app SKIPPED: ${SKIPPED}`);
const itWithHttps = SKIPPED ? it.skip : it;

const TIMEOUT = 60_000;
type Message = DeliveredMessage;

/** A policy file as RFC 8461 §3.2 writes it. */
const policyFile = (mode: string, ...mx: string[]) =>
  ['version: STSv1', `mode: ${mode}`, ...mx.map((host) => `mx: ${host}`), 'max_age: 86400', ''].join('\r\n');

describe('MTA-STS of direct delivery through the app (SMTP_URL=direct)', () => {
  const mx = new TestMxHosts();
  const policies = new Map<string, string>();
  let ca: TestCa | undefined;
  let https: Server | undefined;
  let badSink: SmtpSink;
  let goodSink: SmtpSink;
  let t: TestApp | undefined;

  /** Publishes a domain's MX, its `_mta-sts` TXT record, and its policy on our HTTPS server. */
  function publish(domain: string, exchange: string, mode: string): void {
    mx.dns.publishMx(domain, { preference: 10, exchange });
    mx.dns.publish(`_mta-sts.${domain}`, `v=STSv1; id=${mode}1`);
    mx.dns.publishAddress(`mta-sts.${domain}`, ADDRESS);
    policies.set(`mta-sts.${domain}`, policyFile(mode, exchange));
  }

  beforeAll(async () => {
    if (SKIPPED) return;
    await mx.start();
    ca = await TestCa.create();
    const domains = ['enforce-bad.test', 'testing-bad.test', 'enforce-good.test'];
    const [policyHosts, good, wrongName] = await Promise.all([
      ca.issue(...domains.map((domain) => `mta-sts.${domain}`)),
      ca.issue('mx.good.test'),
      // Signed by the trusted CA, but for another name than the MX host's.
      ca.issue('not-the-mx.test'),
    ]);
    badSink = await mx.host('mx.badcert.test', { key: Buffer.from(wrongName.key), cert: Buffer.from(wrongName.cert) });
    goodSink = await mx.host('mx.good.test', { key: Buffer.from(good.key), cert: Buffer.from(good.cert) });
    publish('enforce-bad.test', 'mx.badcert.test', 'enforce');
    publish('testing-bad.test', 'mx.badcert.test', 'testing');
    publish('enforce-good.test', 'mx.good.test', 'enforce');
    https = createServer({ cert: policyHosts.cert, key: policyHosts.key }, (req, res) => {
      const body = policies.get(req.headers.host ?? '');
      if (req.url !== '/.well-known/mta-sts.txt' || body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
    });
    await new Promise<void>((resolve, reject) => https!.once('error', reject).listen(443, ADDRESS, resolve));
    t = await bootTestApp(
      {
        ROLE: 'all',
        ...mx.directDeliveryEnv(),
        MTA_STS_CA_FILE: ca.certPath,
        // A deferred message stays deferred for the test to read.
        DELIVERY_RETRY_DELAYS: '3600',
      },
      { isolatedDatabase: true },
    );
  }, TIMEOUT);
  afterAll(async () => {
    await t?.close();
    if (https) await new Promise((resolve) => https!.close(resolve));
    https?.closeAllConnections();
    if (!SKIPPED) await mx.stop();
    ca?.remove();
  });

  const send = async (userId: string, to: string): Promise<Message> =>
    (
      await t!.http
        .post('/sender/send')
        .set(bearer(userId))
        .send(sendBody({ to: [to] }))
        .expect(201)
    ).body;
  const mtaStsCount = async (site: string, mode: string, result: string): Promise<number> => {
    const exposition = (await t!.http.get('/metrics').expect(200)).text;
    const line = exposition
      .split('\n')
      .find((l) => l.startsWith(`mailroom_direct_mta_sts_total{site="${site}",mode="${mode}",result="${result}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  itWithHttps(
    'defers with 4.7.5 under enforce when the MX certificate is not valid for its name, sending nothing in clear; testing mode delivers and records the failure',
    async () => {
      const userId = newUserId('sts');

      const enforced = await send(userId, 'a@enforce-bad.test');
      const deferred: Message = await waitForStatus(t!.http, userId, enforced.id, 'deferred');

      expect(deferred.recipients.map((r) => [r.email, r.status])).toEqual([['a@enforce-bad.test', 'deferred']]);
      expect(deferred.recipients[0].detail).toMatch(/^451 4\.7\.5 .*MTA-STS/);
      // The MX host was reached (STARTTLS tried) but no transaction began: no MAIL FROM, no DATA, in clear or not.
      expect(badSink.connections).toBeGreaterThan(0);
      expect(badSink.mailFrom).toEqual([]);
      expect(badSink.attempts).toEqual([]);
      expect(await mtaStsCount('mx.badcert.test', 'enforce', 'failed')).toBeGreaterThan(0);

      const tested = await send(userId, 'b@testing-bad.test');
      const sent: Message = await waitForStatus(t!.http, userId, tested.id, 'sent');

      // Delivered over TLS all the same (opportunistic), the failure recorded, not enforced.
      expect(sent.recipients.map((r) => [r.email, r.status, r.route])).toEqual([
        ['b@testing-bad.test', 'sent', { host: 'mx.badcert.test', tls: true }],
      ]);
      expect(badSink.acceptedFor(tested.id).flatMap((m) => m.to)).toEqual(['b@testing-bad.test']);
      expect(badSink.sessions.map((s) => s.secure)).toEqual([true]);
      expect(await mtaStsCount('mx.badcert.test', 'testing', 'failed')).toBe(1);
      // The enforced message is still kept back: nothing of it reached the server meanwhile.
      expect(badSink.attemptsFor(enforced.id)).toBe(0);
    },
    TIMEOUT,
  );

  itWithHttps(
    'delivers over TLS under enforce when the MX host is in the policy with a certificate valid for its name',
    async () => {
      const userId = newUserId('sts');

      const accepted = await send(userId, 'c@enforce-good.test');
      const sent: Message = await waitForStatus(t!.http, userId, accepted.id, 'sent');

      expect(sent.recipients.map((r) => [r.email, r.status, r.route])).toEqual([
        ['c@enforce-good.test', 'sent', { host: 'mx.good.test', tls: true }],
      ]);
      expect(goodSink.acceptedFor(accepted.id).flatMap((m) => m.to)).toEqual(['c@enforce-good.test']);
      expect(goodSink.sessions.every((s) => s.secure)).toBe(true);
      expect(await mtaStsCount('mx.good.test', 'enforce', 'valid')).toBe(1);
    },
    TIMEOUT,
  );
});
