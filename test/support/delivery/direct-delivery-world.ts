import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../../src/platform/config/app-config';
import { Clock } from '../../../src/platform/clock';
import { Metrics } from '../../../src/platform/metrics/metrics';
import { DirectMailer } from '../../../src/delivery/direct/direct.mailer';
import { LocalSiteLimits } from '../../../src/delivery/direct/local-site-limits';
import { siteShapingOf } from '../../../src/delivery/direct/site-limits.providers';
import type { SiteLimits } from '../../../src/delivery/direct/site-limits';
import { MtaStsSource } from '../../../src/delivery/direct/mta-sts-source';
import { Mailer, MailDeliveryError, Transaction } from '../../../src/delivery/mailer/mailer';
import type { OutgoingMail } from '../../../src/messages';
import { TestMxHosts } from '../mx-hosts';
import { SmtpSink } from '../smtp-sink';
import { bootTestApp, TestApp } from '../test-app';

// The world of the direct-delivery suites (test/medium/delivery/direct-delivery*.e2e-spec.ts): MX hosts
// as SMTP servers on loopback addresses of their own, named by a real DNS server, an app with
// SMTP_URL=direct on them, and the helpers its tests read transactions with.

export const HELO = 'out.mailroom.test';

export function mail(to: string[], overrides: Partial<OutgoingMail> = {}): OutgoingMail {
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

export const receiptOf = (transaction: Transaction | undefined) => {
  if (!transaction || !('receipt' in transaction.result)) throw new Error(`no receipt: ${JSON.stringify(transaction)}`);
  return transaction.result.receipt;
};
export const errorOf = (transaction: Transaction | undefined) => {
  if (!transaction || !('error' in transaction.result)) throw new Error(`no error: ${JSON.stringify(transaction)}`);
  return transaction.result.error as MailDeliveryError;
};
export const forDomain = (transactions: Transaction[], domain: string) =>
  transactions.find(({ recipients }) => recipients.every((r) => r.endsWith(`@${domain}`)));

/** The MX hosts and the app of a suite, set up before its tests and stopped after them; `t` and `sut` are filled in by beforeAll. */
export function directDeliveryWorld() {
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
  return {
    mx,
    sinks,
    get t() {
      return t;
    },
    get sut() {
      return sut;
    },
  };
}

/** A DirectMailer of its own on the app's configuration with `env` over it, its metrics the app's. */
export function directMailer(
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
