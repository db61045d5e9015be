// A submitted message keeps docs/delivery-and-deliverability.md's deliverability: with BOUNCE_DOMAIN, one copy per recipient
// from its own VERP address; DKIM over the submitted bytes (checked by mailauth against a real DNS
// server on loopback); suppressed recipients skipped.
import { randomUUID } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { deliveringApp } from '../../support/delivering-app';
import { TestDnsServer } from '../../support/dns-server';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';
import {
  apiKeyFor,
  bodyOf,
  submissionPort,
  submitWithNodemailer,
  submitWithSwaks,
} from '../../support/submission/submission-clients';
import { itIfSwaks } from '../../support/swaks';

const itWithSwaks = itIfSwaks('Submission through swaks');

const CRLF = '\r\n';
const BOUNCE_DOMAIN = 'bounces.mailroom.test';
const TIMEOUT = 60_000;

describe('deliverability of submitted mail (docs/delivery-and-deliverability.md, docs/api.md#smtp-submission)', () => {
  const dns = new TestDnsServer();
  const env: Record<string, string> = {
    SUBMISSION_SMTP_PORT: '0',
    SUBMISSION_ALLOW_INSECURE_AUTH: 'true',
    BOUNCE_DOMAIN,
  };
  beforeAll(async () => {
    env.DNS_SERVERS = await dns.start();
  });
  const { t, sink } = deliveringApp(env);
  afterAll(() => dns.stop());

  async function verifiedDomain(userId: string): Promise<string> {
    const name = `shop${randomUUID().slice(0, 8)}.example`;
    const { body } = await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201);
    const dkim = body.dnsRecords.find((r: { purpose: string }) => r.purpose === 'dkim');
    dns.publish(dkim.name, dkim.value);
    expect((await t.http.post(`/domains/${body.id}/verify`).set(bearer(userId)).expect(200)).body.status).toBe(
      'verified',
    );
    return name;
  }

  async function dkimResults(raw: Buffer | string): Promise<string[]> {
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const { results } = await dkimVerify(raw, {
      resolver: (name, type) => resolver.resolve(name, type) as Promise<string[][]>,
    });
    return results.map((r) => r.status.result);
  }

  itWithSwaks(
    'sends each recipient, bcc included, its own signed copy of the submitted bytes from its own VERP address, skipping the suppressed',
    async () => {
      const userId = newUserId('verp');
      const domain = await verifiedDomain(userId);
      const { key } = await apiKeyFor(t, userId);
      await t.http.post('/user/suppressions').set(bearer(userId)).send({ email: 'gone@rcpt.example' }).expect(201);
      const body = Buffer.from(['Ünïcödé body, sent as is.', 'Line two.'].join(CRLF));
      const raw = Buffer.concat([
        Buffer.from(
          [
            `From: Shop <news@${domain}>`,
            'To: ann@rcpt.example, gone@rcpt.example',
            'Cc: ben@rcpt.example',
            'Subject: Signed and split',
            'MIME-Version: 1.0',
            'Content-Type: text/plain; charset=utf-8',
            'Content-Transfer-Encoding: 8bit',
            '',
            '',
          ].join(CRLF),
        ),
        body,
      ]);

      const { exitCode, transcript } = await submitWithSwaks(
        submissionPort(t),
        key,
        `news@${domain}`,
        ['ann@rcpt.example', 'gone@rcpt.example', 'ben@rcpt.example', 'cid@rcpt.example'],
        raw,
      );
      expect(exitCode).toBe(0);
      const id = /Queued as (\S+)/.exec(transcript)![1];

      const message = await waitForStatus(t.http, userId, id, 'sent');
      expect(message).toMatchObject({
        to: ['ann@rcpt.example', 'gone@rcpt.example'],
        cc: ['ben@rcpt.example'],
        bcc: ['cid@rcpt.example'],
      });
      const copies = sink.acceptedFor(id);
      expect(copies.map((copy) => copy.to).sort()).toEqual([
        ['ann@rcpt.example'],
        ['ben@rcpt.example'],
        ['cid@rcpt.example'],
      ]);
      expect(new Set(copies.map((copy) => copy.from)).size).toBe(3);
      for (const copy of copies) {
        expect(copy.from).toMatch(new RegExp(`^bounces\\+[0-9a-f]+@${BOUNCE_DOMAIN.replace(/\./g, '\\.')}$`));
        expect(bodyOf(copy.raw)).toEqual(Buffer.concat([body, Buffer.from(CRLF)]));
        expect(copy.raw.toString('latin1')).not.toContain('cid@rcpt.example');
        expect(await dkimResults(copy.raw)).toEqual(['pass']);
      }
      // The verifier is no rubber stamp: a changed subject fails, a changed body does not pass (mailauth: body hash mismatch is neutral).
      const tampered = (from: string, to: string) =>
        Buffer.from(copies[0].raw.toString('latin1').replace(from, to), 'latin1');
      expect(await dkimResults(tampered('Subject: Signed and split', 'Subject: Signed and spilt'))).toEqual(['fail']);
      expect(await dkimResults(tampered('Line two.', 'Line 2.'))).not.toEqual(['pass']);
    },
    TIMEOUT,
  );

  it(
    'signs the copy with our key alone: a DKIM-Signature the client wrote (d=attacker.test) is not delivered',
    async () => {
      const userId = newUserId('forged-dkim');
      const domain = await verifiedDomain(userId);
      const { key } = await apiKeyFor(t, userId);
      const raw = Buffer.from(
        [
          'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=attacker.test; s=x; h=from:to:subject; bh=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=; b=AAAA',
          'Return-Path: <bounce@attacker.test>',
          `From: Shop <news@${domain}>`,
          'To: ann@rcpt.example',
          'Subject: Signed by us only',
          '',
          'Hello',
          '',
        ].join(CRLF),
      );

      const outcome = await submitWithNodemailer(submissionPort(t), key, {
        envelope: { from: `news@${domain}`, to: ['ann@rcpt.example'] },
        raw,
      });
      expect(outcome).toMatchObject({ accepted: true });
      const id = outcome.accepted ? outcome.messageId : '';
      await waitForStatus(t.http, userId, id, 'sent');

      const [copy] = sink.acceptedFor(id);
      const signatures = copy.parsed.headerLines.filter((header) => header.key === 'dkim-signature');
      expect(signatures).toHaveLength(1);
      expect(signatures[0].line).toMatch(new RegExp(`d=${domain.replace(/\./g, '\\.')};`));
      expect(copy.raw.toString('latin1')).not.toContain('attacker.test');
      // The one signature mailauth finds is ours, and it verifies.
      expect(await dkimResults(copy.raw)).toEqual(['pass']);
    },
    TIMEOUT,
  );
});
