import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { AppConfig } from '../../../src/platform/config/app-config';
import { Clock } from '../../../src/platform/clock';
import { Metrics } from '../../../src/platform/metrics/metrics';
import { DirectMailer } from '../../../src/delivery/direct/direct.mailer';
import { LocalSiteLimits } from '../../../src/delivery/direct/local-site-limits';
import { siteShapingOf } from '../../../src/delivery/direct/site-limits.providers';
import { DEFAULT_SITE_SHAPING } from '../../../src/delivery/direct/site-shaping';
import type { Site, SiteLimits } from '../../../src/delivery/direct/site-limits';
import { MtaStsPolicy, MtaStsSource, NoMtaSts } from '../../../src/delivery/direct/mta-sts-source';
import { Mailer, MailDeliveryError, Transaction } from '../../../src/delivery/mailer/mailer';
import { isAddressFailure } from '../../../src/delivery/attempt-decision';
import type { OutgoingMail } from '../../../src/messages';
import { certificateFor, TestMxHosts } from '../../support/mx-hosts';
import { noticeSkip } from '../../support/skip-notice';
import { waitFor } from '../../support/wait-for';
import { SmtpSink } from '../../support/smtp-sink';
import { bootTestApp, TestApp } from '../../support/test-app';

// docs/delivery-and-deliverability.md#direct-delivery: SMTP_URL=direct's transactions, one per
// recipient domain, against real MX hosts: SMTP servers on loopback addresses of their own named
// by a real DNS server. The app's own DirectMailer is asked directly (Mailer.deliver), so that each
// domain's transaction is seen as the hand-over receives it.

const HELO = 'out.mailroom.test';

function mail(to: string[], overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    id: randomUUID(),
    from: 'Ada <ada@sender.test>',
    to,
    cc: [],
    bcc: [],
    replyTo: [],
    subject: 'Direct',
    html: null,
    text: 'Hello',
    headers: {},
    attachments: [],
    ...overrides,
  };
}

const receiptOf = (transaction: Transaction | undefined) => {
  if (!transaction || !('receipt' in transaction.result)) throw new Error(`no receipt: ${JSON.stringify(transaction)}`);
  return transaction.result.receipt;
};
const errorOf = (transaction: Transaction | undefined) => {
  if (!transaction || !('error' in transaction.result)) throw new Error(`no error: ${JSON.stringify(transaction)}`);
  return transaction.result.error as MailDeliveryError;
};
const forDomain = (transactions: Transaction[], domain: string) =>
  transactions.find(({ recipients }) => recipients.every((r) => r.endsWith(`@${domain}`)));

describe('direct delivery to MX hosts (SMTP_URL=direct)', () => {
  const mx = new TestMxHosts();
  const sinks = {} as Record<
    'alpha' | 'beta' | 'grey' | 'up' | 'busy' | 'bare' | 'tls' | 'broken' | 'fast' | 'slow',
    SmtpSink
  >;
  let t: TestApp;
  let sut: Mailer;

  beforeAll(async () => {
    await mx.start();
    const { dns } = mx;
    sinks.alpha = await mx.host('mx.alpha.test');
    sinks.beta = await mx.host('mx.beta.test');
    sinks.grey = await mx.host('mx.grey.test');
    dns.publishMx('alpha.test', { preference: 10, exchange: 'mx.alpha.test' });
    dns.publishMx('beta.test', { preference: 10, exchange: 'mx.beta.test' });
    dns.publishMx('grey.test', { preference: 10, exchange: 'mx.grey.test' });
    sinks.beta.refuseRecipients.add('gone@beta.test');
    // MX preference: a host nobody listens on first, then one that turns clients away (421), then one that takes mail.
    mx.deadHost('down.pref.test');
    sinks.busy = await mx.host('busy.pref.test');
    sinks.busy.greetingReply = { code: 421, message: '4.7.0 Too many connections, try later' };
    sinks.up = await mx.host('up.pref.test');
    dns.publishMx(
      'pref.test',
      { preference: 30, exchange: 'up.pref.test' },
      { preference: 10, exchange: 'down.pref.test' },
      { preference: 20, exchange: 'busy.pref.test' },
    );
    // No MX: the domain's own address (RFC 5321 §5.1).
    sinks.bare = await mx.host('bare.test');
    dns.publishMx('null.test', { preference: 0, exchange: '.' });
    sinks.tls = await mx.host('mx.tls.test', 'builtin');
    dns.publishMx('tls.test', { preference: 10, exchange: 'mx.tls.test' });
    sinks.broken = await mx.host('mx.broken.test', 'broken');
    dns.publishMx('broken.test', { preference: 10, exchange: 'mx.broken.test' });
    sinks.fast = await mx.host('mx.fast.test');
    dns.publishMx('fast.test', { preference: 10, exchange: 'mx.fast.test' });
    sinks.slow = await mx.host('mx.slow.test');
    dns.publishMx('slow.test', { preference: 10, exchange: 'mx.slow.test' });
    // A server that greets, then turns EHLO (and HELO) away: too many connections.
    await mx.raw('mx.crowded.test', (socket) => {
      socket.on('error', () => undefined);
      socket.write('220 mx.crowded.test ESMTP\r\n');
      socket.on('data', () => socket.end('421 4.7.0 mx.crowded.test Too many concurrent SMTP connections\r\n'));
    });
    dns.publishMx('crowded.test', { preference: 10, exchange: 'mx.crowded.test' });
    t = await bootTestApp(
      {
        ROLE: 'all',
        SMTP_URL: 'direct',
        DNS_SERVERS: mx.dns.address,
        DIRECT_MX_PORT: String(mx.port),
        DELIVERY_HELO_NAME: HELO,
      },
      { isolatedDatabase: true },
    );
    sut = t.app.get(Mailer);
  });
  afterAll(async () => {
    await t?.close();
    await mx.stop();
  });

  it('is the mailer SMTP_URL=direct chooses', () => {
    expect(sut).toBeInstanceOf(DirectMailer);
  });

  it("makes one transaction per domain, each with its own fate, and a greylisted domain's is retried alone", async () => {
    sinks.grey.greylist.set('g@grey.test', 1);
    const outgoing = mail(['a@alpha.test', 'b@beta.test', 'g@grey.test'], { cc: ['gone@beta.test'] });

    const transactions = await sut.deliver(outgoing);

    expect(transactions).toHaveLength(3);
    const alpha = receiptOf(forDomain(transactions, 'alpha.test'));
    expect(alpha).toEqual({
      reply: expect.stringMatching(/^250 /),
      rejected: [],
      route: { host: 'mx.alpha.test', tls: false },
    });
    const beta = receiptOf(forDomain(transactions, 'beta.test'));
    expect(forDomain(transactions, 'beta.test')!.recipients).toEqual(['b@beta.test', 'gone@beta.test']);
    expect(beta.rejected).toEqual([
      { address: 'gone@beta.test', reply: expect.stringMatching(/^550 5\.1\.1 /), permanent: true },
    ]);
    expect(beta.route).toEqual({ host: 'mx.beta.test', tls: false });
    const grey = errorOf(forDomain(transactions, 'grey.test'));
    expect(grey).toBeInstanceOf(MailDeliveryError);
    expect(grey).toMatchObject({ permanent: false, route: { host: 'mx.grey.test', tls: false } });
    expect(grey.message).toMatch(/451 4\.7\.1 Greylisted/);
    expect(sinks.alpha.acceptedFor(outgoing.id)).toEqual([expect.objectContaining({ to: ['a@alpha.test'] })]);
    expect(sinks.beta.acceptedFor(outgoing.id)).toEqual([expect.objectContaining({ to: ['b@beta.test'] })]);
    expect(sinks.grey.acceptedFor(outgoing.id)).toEqual([]);

    // The retry: the greylisted domain's recipient alone (the hand-over sends only those left).
    const retry = await sut.deliver({ ...outgoing, to: ['g@grey.test'], cc: [] });

    expect(receiptOf(retry[0]).route).toEqual({ host: 'mx.grey.test', tls: false });
    expect(sinks.grey.acceptedFor(outgoing.id)).toEqual([expect.objectContaining({ to: ['g@grey.test'] })]);
    expect(sinks.alpha.acceptedFor(outgoing.id)).toHaveLength(1);
  });

  it('fails a null MX domain and a domain that does not exist at once, as address failures of each recipient', async () => {
    const seen = sinks.alpha.mailFrom.length;

    const transactions = await sut.deliver(mail(['x@null.test', 'y@nowhere.test', 'z@nowhere.test']));

    const nullMx = errorOf(forDomain(transactions, 'null.test'));
    const nxdomain = errorOf(forDomain(transactions, 'nowhere.test'));
    expect(nullMx).toMatchObject({ permanent: true, command: 'RCPT TO', route: undefined });
    expect(nullMx.refused).toEqual([
      { address: 'x@null.test', reply: expect.stringMatching(/^550 5\.1\.10 /), permanent: true },
    ]);
    expect(nxdomain).toMatchObject({ permanent: true, command: 'RCPT TO' });
    expect(nxdomain.refused.map((r) => r.address)).toEqual(['y@nowhere.test', 'z@nowhere.test']);
    expect(nxdomain.message).toMatch(/^550 5\.1\.2 /);
    // Read by §9's rule as the address's own failure: suppressed.
    for (const error of [nullMx, nxdomain]) expect(isAddressFailure(error.message, error.command)).toBe(true);
    expect(sinks.alpha.mailFrom.length).toBe(seen);
  });

  it("tries MX hosts by preference, past a refused connection and a 421 greeting, and a domain's own address without MX", async () => {
    const busyBefore = sinks.busy.connections;

    const [pref, bare] = await Promise.all([sut.deliver(mail(['p@pref.test'])), sut.deliver(mail(['q@bare.test']))]);

    expect(receiptOf(pref[0]).route).toEqual({ host: 'up.pref.test', tls: false });
    expect(sinks.busy.connections).toBe(busyBefore + 1);
    expect(sinks.busy.mailFrom).toEqual([]);
    expect(receiptOf(bare[0]).route).toEqual({ host: 'bare.test', tls: false });
  });

  it('says EHLO DELIVERY_HELO_NAME', async () => {
    await sut.deliver(mail(['h@bare.test']));

    expect(sinks.bare.sessions.map((s) => s.heloName)).toEqual(expect.arrayContaining([HELO]));
    expect(new Set(sinks.bare.sessions.map((s) => s.heloName))).toEqual(new Set([HELO]));
  });

  it('uses STARTTLS when offered', async () => {
    const [transaction] = await sut.deliver(mail(['s@tls.test']));

    expect(receiptOf(transaction).route).toEqual({ host: 'mx.tls.test', tls: true });
    expect(sinks.tls.sessions.at(-1)?.secure).toBe(true);
  });

  it('builds no TLS context per STARTTLS: every connection shares the one of the CAs it trusts', async () => {
    const oneEach = directMailer(t, { DELIVERY_MESSAGES_PER_CONNECTION: '1' }, new NoMtaSts());
    // Node's own module, the one nodemailer's STARTTLS goes through.
    const tls = jest.requireActual<typeof import('node:tls')>('node:tls');
    const built = jest.spyOn(tls, 'createSecureContext');
    try {
      await oneEach.deliver(mail(['c1@tls.test']));
      const first = built.mock.calls.length;
      await oneEach.deliver(mail(['c2@tls.test']));
      await oneEach.deliver(mail(['c3@tls.test']));

      expect(sinks.tls.sessions.slice(-3).map((s) => s.secure)).toEqual([true, true, true]);
      // At most the trust itself, once, at its first use.
      expect(first).toBeLessThanOrEqual(1);
      expect(built.mock.calls.length).toBe(first);
    } finally {
      built.mockRestore();
      await oneEach.onModuleDestroy();
    }
  });

  it('sends the messages of a site over one connection, RSET between them', async () => {
    const before = sinks.alpha.connections;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const outgoing = mail([`r${i}@alpha.test`]);
      ids.push(outgoing.id);
      expect(receiptOf((await sut.deliver(outgoing))[0]).reply).toMatch(/^250 /);
    }

    const sessions = sinks.alpha.sessions.slice(-3).map((s) => s.sessionId);
    expect(new Set(sessions).size).toBe(1);
    expect(sinks.alpha.connections - before).toBeLessThanOrEqual(1);
    expect(ids.map((id) => sinks.alpha.acceptedFor(id).length)).toEqual([1, 1, 1]);
  });

  it('sends no more over an open connection of a site that said "too fast": the next message waits out its pause', async () => {
    sinks.fast.reply = () => ({ code: 451, message: '4.7.650 The mail server has been temporarily rate limited' });
    const first = errorOf((await sut.deliver(mail(['a@fast.test'])))[0]);
    expect(first.message).toMatch(/^451 4\.7\.650 /);
    sinks.fast.reply = () => 'accept';
    const connections = sinks.fast.connections;

    // The app's limits pause the site (DELIVERY_SITE_PAUSE_SECONDS' default, past the send's wait): deferred, not sent.
    const next = errorOf((await sut.deliver(mail(['b@fast.test'])))[0]);

    expect(next).toMatchObject({ permanent: false });
    expect(next.message).toMatch(/^451 4\.4\.5 /);
    expect(sinks.fast.connections).toBe(connections);
    expect(sinks.fast.mailFrom).toHaveLength(1);
    await waitFor(() => sinks.fast.closed === connections, 'the connection that heard it to be closed');
  });

  it('counts connections and deliveries per site on GET /metrics', async () => {
    const text = (await t.http.get('/metrics').expect(200)).text;

    expect(text).toMatch(/mailroom_direct_connections_total\{site="mx.alpha.test",tls="no"\} [1-9]/);
    expect(text).toMatch(/mailroom_direct_connections_total\{site="mx.tls.test",tls="yes"\} [1-9]/);
    expect(text).toMatch(/mailroom_direct_deliveries_total\{site="mx.grey.test",outcome="deferred"\} 1/);
    expect(text).toMatch(/mailroom_direct_deliveries_total\{site="mx.beta.test",outcome="sent"\} [1-9]/);
  });

  describe('a host whose TLS handshake fails', () => {
    // One message a connection, so that each message shows whether STARTTLS is tried again.
    let oneEach: DirectMailer;
    beforeAll(() => {
      oneEach = directMailer(t, { DELIVERY_MESSAGES_PER_CONNECTION: '1' }, new NoMtaSts());
    });
    afterAll(() => oneEach.onModuleDestroy());

    it('gets the message in clear at once, and is remembered: the next connection does not try TLS', async () => {
      const before = sinks.broken.connections;

      const [first] = await oneEach.deliver(mail(['t1@broken.test']));

      expect(receiptOf(first).route).toEqual({ host: 'mx.broken.test', tls: false });
      // The TLS attempt, then the session in clear.
      expect(sinks.broken.connections - before).toBe(2);

      const [second] = await oneEach.deliver(mail(['t2@broken.test']));

      expect(receiptOf(second).route).toEqual({ host: 'mx.broken.test', tls: false });
      expect(sinks.broken.connections - before).toBe(3);
      expect(sinks.broken.sessions.slice(-2).map((s) => s.secure)).toEqual([false, false]);
    });
  });

  describe('with site limits that record what they are told', () => {
    /** LocalSiteLimits that keeps every 4xx reported to it. */
    class RecordingLimits extends LocalSiteLimits {
      readonly replies: [Site, string][] = [];
      override deferred(site: Site, reply: string): Promise<void> {
        this.replies.push([site, reply]);
        return super.deferred(site, reply);
      }
    }
    let limits: RecordingLimits;
    let sut: DirectMailer;
    beforeAll(() => {
      sut = directMailer(
        t,
        // A pool of two loopback source addresses, and one message a connection, so that each message shows its source.
        { DELIVERY_SOURCE_ADDRESSES: '127.0.0.50,127.0.0.51', DELIVERY_MESSAGES_PER_CONNECTION: '1' },
        new NoMtaSts(),
        (config) => (limits = new RecordingLimits(siteShapingOf(config))),
      );
    });
    afterAll(() => sut.onModuleDestroy());

    it('binds each connection to the next of DELIVERY_SOURCE_ADDRESSES', async () => {
      await sut.deliver(mail(['s1@alpha.test']));
      await sut.deliver(mail(['s2@alpha.test']));

      expect(sinks.alpha.sessions.slice(-2).map((s) => s.remoteAddress)).toEqual(['127.0.0.50', '127.0.0.51']);
    });

    it("reports every 4xx of a site to its limits: a refused greeting and a recipient's", async () => {
      sinks.grey.greylist.set('late@grey.test', 1);

      await sut.deliver(mail(['late@grey.test']));
      await sut.deliver(mail(['l@pref.test']));

      expect(limits.replies).toEqual([
        ['mx.grey.test', expect.stringMatching(/^451 4\.7\.1 Greylisted/)],
        ['busy.pref.test,down.pref.test,up.pref.test', expect.stringMatching(/^421 4\.7\.0 Too many connections/)],
      ]);
    });

    it('reports a 4xx to EHLO to its limits, as one to the greeting', async () => {
      const seen = limits.replies.length;

      const error = errorOf((await sut.deliver(mail(['c@crowded.test'])))[0]);

      expect(error.message).toMatch(/^451 4\.4\.1 .*421 4\.7\.0 mx\.crowded\.test Too many concurrent/);
      expect(limits.replies.slice(seen)).toEqual([
        ['mx.crowded.test', expect.stringMatching(/^421 4\.7\.0 mx\.crowded\.test Too many concurrent/)],
      ]);
    });

    it('closes a connection past DELIVERY_MESSAGES_PER_CONNECTION, giving its lease back', async () => {
      const closed = sinks.beta.closed;

      await sut.deliver(mail(['c@beta.test']));

      await waitFor(() => sinks.beta.closed > closed, 'the connection to close');
      expect(limits.openAt('mx.beta.test')).toBe(0);
    });
  });

  it("holds a site to its connection limit, messages waiting for the site's connection taking it in turn", async () => {
    const limits = new LocalSiteLimits({ ...DEFAULT_SITE_SHAPING, defaultConnections: 1, byHostSuffix: {} });
    const sut = directMailer(t, { DELIVERY_SITE_CONNECTIONS: '1' }, new NoMtaSts(), () => limits);
    const before = sinks.alpha.connections;

    const results = await Promise.all([1, 2, 3].map((i) => sut.deliver(mail([`w${i}@alpha.test`]))));

    expect(results.map(([transaction]) => receiptOf(transaction).reply)).toEqual([
      expect.stringMatching(/^250 /),
      expect.stringMatching(/^250 /),
      expect.stringMatching(/^250 /),
    ]);
    // One connection, handed from one message to the next, not one a message after the last closed.
    expect(sinks.alpha.connections - before).toBe(1);
    expect(new Set(sinks.alpha.sessions.slice(-3).map((s) => s.sessionId)).size).toBe(1);
    expect(limits.openAt('mx.alpha.test')).toBe(1);
    await sut.onModuleDestroy();
    expect(limits.openAt('mx.alpha.test')).toBe(0);
  });

  it('closes an idle connection after a few seconds, giving its lease back', async () => {
    const limits = new LocalSiteLimits(DEFAULT_SITE_SHAPING);
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits);
    const closed = sinks.beta.closed;

    await sut.deliver(mail(['i@beta.test']));

    expect(limits.openAt('mx.beta.test')).toBe(1);
    await waitFor(() => sinks.beta.closed > closed, 'the idle connection to close');
    await waitFor(() => limits.openAt('mx.beta.test') === 0, 'its lease to come back');
  });

  it("ends a domain's send at its deadline when the server stalls after DATA: connection destroyed, lease back, deferred", async () => {
    let answer!: () => void;
    const stalled = new Promise<'accept'>((resolve) => (answer = () => resolve('accept')));
    sinks.slow.reply = () => stalled;
    const limits = new LocalSiteLimits(DEFAULT_SITE_SHAPING);
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits, 1_500);
    const closed = sinks.slow.closed;

    const [transaction] = await sut.deliver(mail(['d@slow.test']));

    const error = errorOf(transaction);
    expect(error).toMatchObject({ permanent: false, route: { host: 'mx.slow.test', tls: false } });
    expect(error.message).toMatch(/^Timeout: no reply from mx\.slow\.test .*may have been accepted/);
    expect(limits.openAt('mx.slow.test')).toBe(0);
    await waitFor(() => sinks.slow.closed > closed, 'the stalled connection to be closed');
    answer();
    sinks.slow.reply = () => 'accept';
    await sut.onModuleDestroy();
  });

  it("waits only briefly for a full site's connection, then defers that domain's recipients (451 4.4.5)", async () => {
    let answer!: () => void;
    const stalled = new Promise<'accept'>((resolve) => (answer = () => resolve('accept')));
    sinks.slow.reply = () => stalled;
    const limits = new LocalSiteLimits({ ...DEFAULT_SITE_SHAPING, defaultConnections: 1, byHostSuffix: {} });
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits);
    const seen = sinks.slow.mailFrom.length;
    const first = sut.deliver(mail(['f1@slow.test']));
    await waitFor(() => sinks.slow.mailFrom.length > seen, "the first message's transaction to begin");

    // The site's one connection is held by a send that still has most of its 60 s.
    const [second] = await sut.deliver(mail(['f2@slow.test']));

    expect(errorOf(second).message).toMatch(/^451 4\.4\.5 Every connection to slow\.test's mail servers/);
    answer();
    expect(receiptOf((await first)[0]).reply).toMatch(/^250 /);
    sinks.slow.reply = () => 'accept';
    await sut.onModuleDestroy();
  });

  it("defers a domain with its own words, not the store's, when the site's limits cannot be asked", async () => {
    class FailingLimits extends LocalSiteLimits {
      override acquire(): Promise<undefined> {
        return Promise.reject(new Error('relation "delivery_sites" does not exist'));
      }
    }
    const sut = directMailer(t, {}, new NoMtaSts(), (config) => new FailingLimits(siteShapingOf(config)));

    const [transaction] = await sut.deliver(mail(['p1@fast.test']));

    expect(errorOf(transaction)).toMatchObject({ permanent: false });
    expect(errorOf(transaction).message).toBe(
      '451 4.3.0 Delivery to fast.test could not be paced just now, will try again',
    );
    await sut.onModuleDestroy();
  });

  it('says a site is paused, not busy, when its pause outlasts the wait for a connection', async () => {
    /** Grants no lease once told "too fast", as the store does while the pause runs. */
    class PausingLimits extends LocalSiteLimits {
      private paused = false;
      override acquire(site: Site, deadline: number, signal?: AbortSignal) {
        return this.paused ? Promise.resolve(undefined) : super.acquire(site, deadline, signal);
      }
      override deferred(site: Site, reply: string) {
        this.paused = true;
        return super.deferred(site, reply);
      }
    }
    const limits = new PausingLimits(siteShapingOf(t.config));
    const sut = directMailer(t, {}, new NoMtaSts(), () => limits);
    expect(receiptOf((await sut.deliver(mail(['p2@fast.test'])))[0]).reply).toMatch(/^250 /);
    await limits.deferred('mx.fast.test', '421 4.7.0 Error: too many messages, try again in 5 minutes');

    const [second] = await sut.deliver(mail(['p3@fast.test']));

    expect(errorOf(second).message).toMatch(/^451 4\.4\.5 .*is paused: the site asked us to slow down/);
    await sut.onModuleDestroy();
  });

  describe('MTA-STS', () => {
    let cert: Awaited<ReturnType<typeof certificateFor>>;
    let verified: SmtpSink;
    let misnamed: SmtpSink;
    const policies = new Map<string, MtaStsPolicy>();
    // The policies a domain would publish; MtaStsPolicies fetches them (another suite).
    const source: MtaStsSource = {
      policyFor: (domain) => Promise.resolve(policies.get(domain) ?? { mode: 'none', mx: [] }),
      // RFC 8461 §4.1: a name as given, or `*.` standing for exactly one label.
      matches: (policy, host) =>
        policy.mx.some((pattern) =>
          pattern.startsWith('*.') ? host.split('.').slice(1).join('.') === pattern.slice(2) : host === pattern,
        ),
    };
    let sts: DirectMailer;

    beforeAll(async () => {
      cert = await certificateFor(['mx.sts.test']);
      if (!cert) return;
      verified = await mx.host('mx.sts.test', { key: cert.key, cert: cert.cert });
      mx.dns.publishMx('sts.test', { preference: 10, exchange: 'mx.sts.test' });
      policies.set('sts.test', { mode: 'enforce', mx: ['*.sts.test'] });
      // A certificate from the trusted CA, but for another name (mx.sts.test's).
      misnamed = await mx.host('mx.misnamed.test', { key: cert.key, cert: cert.cert });
      mx.dns.publishMx('misnamed.test', { preference: 10, exchange: 'mx.misnamed.test' });
      policies.set('misnamed.test', { mode: 'enforce', mx: ['mx.misnamed.test'] });
      // A host offering TLS with a certificate not valid for it (smtp-server's own, for localhost).
      policies.set('tls.test', { mode: 'enforce', mx: ['mx.tls.test'] });
      policies.set('alpha.test', { mode: 'enforce', mx: ['mx.elsewhere.test'] });
      policies.set('bare.test', { mode: 'testing', mx: ['bare.test'] });
      sts = directMailer(t, { MTA_STS_CA_FILE: cert.certPath }, source);
    });
    afterAll(async () => {
      await sts?.onModuleDestroy();
      if (cert) rmSync(cert.dir, { recursive: true, force: true });
    });
    const itWithOpenssl = (name: string, fn: () => Promise<void>) =>
      it(name, async () => {
        if (!cert) return noticeSkip(`direct-delivery: "${name}" skipped, openssl is not installed`);
        await fn();
      });

    itWithOpenssl('enforce: delivers over TLS to a matching host whose certificate is valid for its name', async () => {
      const [transaction] = await sts.deliver(mail(['e@sts.test']));

      expect(receiptOf(transaction).route).toEqual({ host: 'mx.sts.test', tls: true });
      expect(verified.sessions.at(-1)?.secure).toBe(true);
    });

    itWithOpenssl(
      'enforce: defers with 4.7.5, never in clear, when the certificate is not valid for the host',
      async () => {
        const seen = sinks.tls.mailFrom.length;

        const error = errorOf((await sts.deliver(mail(['f@tls.test'])))[0]);

        expect(error).toMatchObject({ permanent: false });
        expect(error.message).toMatch(/^451 4\.7\.5 .*MTA-STS/);
        expect(sinks.tls.mailFrom.length).toBe(seen);
      },
    );

    itWithOpenssl(
      'enforce: defers with 4.7.5, never in clear, when a trusted certificate is for another name than the host',
      async () => {
        const error = errorOf((await sts.deliver(mail(['w@misnamed.test'])))[0]);

        expect(error).toMatchObject({ permanent: false });
        expect(error.message).toMatch(/^451 4\.7\.5 .*MTA-STS/);
        expect(misnamed.connections).toBeGreaterThan(0);
        expect(misnamed.mailFrom).toEqual([]);
      },
    );

    itWithOpenssl('enforce: defers with 4.7.5 when no MX host matches the policy', async () => {
      const seen = sinks.alpha.mailFrom.length;

      const error = errorOf((await sts.deliver(mail(['m@alpha.test'])))[0]);

      expect(error.message).toMatch(/^451 4\.7\.5 No MX host of alpha\.test matches its MTA-STS policy/);
      expect(sinks.alpha.mailFrom.length).toBe(seen);
    });

    itWithOpenssl('testing: a host without TLS is delivered to, and the failure counted', async () => {
      const [transaction] = await sts.deliver(mail(['n@bare.test']));

      expect(receiptOf(transaction).route).toEqual({ host: 'bare.test', tls: false });
      const text = (await t.http.get('/metrics').expect(200)).text;
      expect(text).toMatch(/mailroom_direct_mta_sts_total\{site="bare.test",mode="testing",result="failed"\} 1/);
      expect(text).toMatch(/mailroom_direct_mta_sts_total\{site="mx.sts.test",mode="enforce",result="valid"\} 1/);
    });
  });
});

/** A DirectMailer of its own on the app's configuration with `env` over it, its metrics the app's. */
function directMailer(
  t: TestApp,
  env: Record<string, string>,
  mtaSts: MtaStsSource,
  limits?: (config: AppConfig) => SiteLimits,
  sendBudgetMs?: number,
): DirectMailer {
  const config = AppConfig.fromEnvironment({
    JWT_SECRET: 'a-secret-of-at-least-thirty-two-characters!',
    SMTP_URL: 'direct',
    DNS_SERVERS: t.config.deliverability.dnsServers.join(','),
    DIRECT_MX_PORT: String(t.config.delivery.direct!.mxPort),
    DELIVERY_HELO_NAME: HELO,
    ...env,
  });
  return new DirectMailer(
    config,
    limits?.(config) ?? new LocalSiteLimits(siteShapingOf(config)),
    mtaSts,
    t.app.get(Metrics),
    new Clock(),
    sendBudgetMs,
  );
}
