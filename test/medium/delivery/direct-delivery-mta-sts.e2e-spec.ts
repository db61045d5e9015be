import { rmSync } from 'node:fs';
import { DirectMailer } from '../../../src/delivery/direct/direct.mailer';
import { MtaStsPolicy, MtaStsSource } from '../../../src/delivery/direct/mta-sts-source';
import { certificateFor } from '../../support/mx-hosts';
import { noticeSkip } from '../../support/skip-notice';
import { SmtpSink } from '../../support/smtp-sink';
import { TestApp } from '../../support/test-app';
import {
  directDeliveryWorld,
  directMailer,
  errorOf,
  mail,
  receiptOf,
} from '../../support/delivery/direct-delivery-world';
// docs/delivery-and-deliverability.md#direct-delivery: SMTP_URL=direct's transactions, one per
// recipient domain, against real MX hosts: SMTP servers on loopback addresses of their own named
// by a real DNS server. The app's own DirectMailer is asked directly (Mailer.deliver), so that each
// domain's transaction is seen as the hand-over receives it.
// This file: MTA-STS policies enforced and tested against the hosts' certificates.

describe('direct delivery to MX hosts (SMTP_URL=direct): MTA-STS', () => {
  const world = directDeliveryWorld();
  const { mx, sinks } = world;
  let t: TestApp;
  beforeAll(() => {
    ({ t } = world);
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
