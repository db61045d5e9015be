// DKIM signing at delivery (docs/delivery-and-deliverability.md), end to end: a domain verified against a real DNS server on
// loopback (dns2), mail delivered by the real worker to a real SMTP sink, and the bytes received
// checked by mailauth's DKIM verifier, which looks the key up in that same DNS server.
import { randomUUID } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { deliveringApp } from '../../support/delivering-app';
import { TestDnsServer } from '../../support/dns-server';
import { sendBody } from '../../support/factories';
import { bearer, newUserId } from '../../support/tokens';
import { waitForStatus } from '../../support/wait-for';

const TIMEOUT = 60_000;
// What mailauth reports for a message without a signature.
const UNSIGNED = [expect.objectContaining({ result: 'none', domain: undefined })];

describe('DKIM signing of delivered mail', () => {
  const dns = new TestDnsServer();
  const env: Record<string, string> = {};
  beforeAll(async () => {
    env.DNS_SERVERS = await dns.start();
  });
  const { t, sink } = deliveringApp(env);
  afterAll(() => dns.stop());

  const alice = newUserId('alice');
  const bob = newUserId('bob');
  const domain = `shop${randomUUID().slice(0, 8)}.example`;
  const domains: Record<string, { id: string; dkim: { selector: string } }> = {};

  /** Registers a domain for a user; with `publish`, publishes its DKIM record as told and verifies it. */
  async function register(userId: string, name: string, { publish }: { publish: boolean }) {
    const { body } = await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201);
    if (publish) {
      const dkim = body.dnsRecords.find((r: { purpose: string }) => r.purpose === 'dkim');
      dns.publish(dkim.name, dkim.value);
      expect((await t.http.post(`/domains/${body.id}/verify`).set(bearer(userId)).expect(200)).body.status).toBe(
        'verified',
      );
    }
    return body;
  }

  /** Sends through the API and resolves to the bytes the SMTP sink received once the message is sent. */
  async function deliver(userId: string, sender: string, fields: Record<string, unknown> = {}): Promise<Buffer> {
    const subject = `Signed ${randomUUID()}`;
    const { body } = await t.http
      .post('/sender/send')
      .set(bearer(userId))
      .send(sendBody({ sender, subject, ...fields }))
      .expect(201);
    await waitForStatus(t.http, userId, body.id, 'sent');
    const [mail] = sink.acceptedFor(body.id);
    expect(mail.parsed.subject).toBe(subject);
    return mail.raw;
  }

  /** mailauth's verdict on the received bytes, its key looked up in the test's DNS server. */
  async function verifyDkim(raw: Buffer | string) {
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const { results } = await dkimVerify(raw, {
      resolver: (name, type) => resolver.resolve(name, type) as Promise<string[][]>,
    });
    return results.map((r) => ({
      result: r.status.result,
      domain: r.signingDomain,
      selector: r.selector,
      headers: (r as unknown as SignedHeaders).signingHeaders?.keys,
    }));
  }
  type SignedHeaders = { signingHeaders?: { keys: string } };

  beforeAll(async () => {
    domains.alice = await register(alice, domain, { publish: true });
  }, TIMEOUT);

  it(
    'signs mail from a verified domain so that mailauth, with the published record, reports pass',
    async () => {
      const raw = await deliver(alice, `Billing <billing@${domain}>`);

      const [signature, ...others] = await verifyDkim(raw);

      expect(others).toEqual([]);
      expect(signature).toEqual({
        result: 'pass',
        domain,
        selector: domains.alice.dkim.selector,
        headers: expect.any(String),
      });
      const signed = signature
        .headers!.toLowerCase()
        .split(':')
        .map((name) => name.trim());
      expect(signed).toEqual(
        expect.arrayContaining(['from', 'to', 'subject', 'date', 'message-id', 'mime-version', 'content-type']),
      );
      expect(raw.toString('latin1')).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed;/m);
      // The verifier is not a rubber stamp: the same bytes with the subject changed fail.
      const tampered = raw.toString('latin1').replace(/^Subject: Signed/m, 'Subject: Signet');
      expect((await verifyDkim(tampered))[0].result).toBe('fail');
    },
    TIMEOUT,
  );

  it(
    'signs a text-only message, whose one part is the whole body, so that mailauth reports pass',
    async () => {
      const raw = await deliver(alice, `billing@${domain}`, { html: undefined, text: 'Your code is 428 913.' });

      expect(raw.toString('latin1')).toMatch(/^Content-Type: text\/plain/m);
      expect(raw.toString('latin1')).not.toMatch(/multipart|text\/html/i);
      expect(await verifyDkim(raw)).toEqual([expect.objectContaining({ result: 'pass', domain })]);
      // The body hash covers the text: with it changed, mailauth finds the hash wrong (its word: neutral).
      const tampered = raw.toString('latin1').replace('428 913', '428 914');
      // Found before any key is looked up: no resolver is needed.
      const [verdict] = (await dkimVerify(tampered, { resolver: () => Promise.resolve([]) })).results;
      expect([verdict.status.result, verdict.status.comment]).toEqual(['neutral', 'body hash did not verify']);
    },
    TIMEOUT,
  );

  it(
    "signs each recipient's copy of bulk mail over its own List-Unsubscribe pair (RFC 8058 §4)",
    async () => {
      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(alice))
        .send(
          sendBody({ sender: `news@${domain}`, to: ['ada@example.com', 'grace@example.com'], bulkSendingId: 'spring' }),
        )
        .expect(201);
      await waitForStatus(t.http, alice, body.id, 'sent');
      const copies = sink.acceptedFor(body.id);

      expect(copies).toHaveLength(2);
      for (const copy of copies) {
        const [signature] = await verifyDkim(copy.raw);
        expect(signature).toEqual(expect.objectContaining({ result: 'pass', domain }));
        expect(
          signature
            .headers!.toLowerCase()
            .split(':')
            .map((name) => name.trim()),
        ).toEqual(expect.arrayContaining(['list-unsubscribe', 'list-unsubscribe-post']));
        // Another recipient's link in this copy would unsubscribe the wrong address: the signature says no.
        const relinked = copy.raw
          .toString('latin1')
          .replace(/(List-Unsubscribe:\s*<[^>]*\/unsubscribe\/)[0-9a-f]/, (_, head: string) => `${head}x`);
        expect(relinked).not.toBe(copy.raw.toString('latin1'));
        expect((await verifyDkim(relinked))[0].result).toBe('fail');
      }
    },
    TIMEOUT,
  );

  it(
    "signs mail from a subdomain with the verified domain, and with a verified subdomain's own key once there is one",
    async () => {
      const sender = `news@eu.mail.${domain}`;
      const before = await verifyDkim(await deliver(alice, sender));

      domains.subdomain = await register(alice, `mail.${domain}`, { publish: true });
      const after = await verifyDkim(await deliver(alice, sender));

      expect(before).toEqual([
        expect.objectContaining({ result: 'pass', domain, selector: domains.alice.dkim.selector }),
      ]);
      expect(after).toEqual([
        expect.objectContaining({
          result: 'pass',
          domain: `mail.${domain}`,
          selector: domains.subdomain.dkim.selector,
        }),
      ]);
    },
    TIMEOUT,
  );

  it(
    'does not sign mail from a domain that is registered but not verified, or not registered at all',
    async () => {
      const pending = `pending${randomUUID().slice(0, 8)}.example`;
      await register(alice, pending, { publish: false });

      for (const sender of [`billing@${pending}`, 'billing@elsewhere.example', `billing@not-${domain}`]) {
        const raw = await deliver(alice, sender);
        expect({ sender, signatures: await verifyDkim(raw) }).toEqual({ sender, signatures: UNSIGNED });
        expect(raw.toString('latin1')).not.toMatch(/^DKIM-Signature:/im);
      }
    },
    TIMEOUT,
  );

  it(
    "does not sign another user's mail with a user's verified domain; that user's own verified registration signs with its own key",
    async () => {
      const unsigned = await verifyDkim(await deliver(bob, `billing@${domain}`));

      const bobs = await register(bob, domain, { publish: false });
      // Both users' key records are published side by side, each at its own selector.
      const dkim = bobs.dnsRecords.find((r: { purpose: string }) => r.purpose === 'dkim');
      dns.publish(dkim.name, dkim.value);
      expect((await t.http.post(`/domains/${bobs.id}/verify`).set(bearer(bob)).expect(200)).body.status).toBe(
        'verified',
      );
      const bobSigned = await verifyDkim(await deliver(bob, `billing@${domain}`));
      const aliceSigned = await verifyDkim(await deliver(alice, `billing@${domain}`));

      expect(unsigned).toEqual(UNSIGNED);
      expect(bobs.dkim.selector).not.toBe(domains.alice.dkim.selector);
      expect(bobSigned).toEqual([expect.objectContaining({ result: 'pass', domain, selector: bobs.dkim.selector })]);
      expect(aliceSigned).toEqual([
        expect.objectContaining({ result: 'pass', domain, selector: domains.alice.dkim.selector }),
      ]);
    },
    TIMEOUT,
  );

  it(
    'stops signing at once when the domain is deleted',
    async () => {
      const name = `brief${randomUUID().slice(0, 8)}.example`;
      const brief = await register(alice, name, { publish: true });
      expect(await verifyDkim(await deliver(alice, `hello@${name}`))).toEqual([
        expect.objectContaining({ result: 'pass', domain: name }),
      ]);

      await t.http.delete(`/domains/${brief.id}`).set(bearer(alice)).expect(204);

      expect(await verifyDkim(await deliver(alice, `hello@${name}`))).toEqual(UNSIGNED);
    },
    TIMEOUT,
  );

  it(
    'defers, rather than sends unsigned, mail whose key does not decrypt (DATA_ENCRYPTION_KEY changed)',
    async () => {
      const name = `sealed${randomUUID().slice(0, 8)}.example`;
      const sealed = await register(alice, name, { publish: true });
      await t.db.query(
        `UPDATE sending_domains SET private_key = set_byte(private_key, 20, get_byte(private_key, 20) # 1) WHERE id = $1`,
        [sealed.id],
      );

      const { body } = await t.http
        .post('/sender/send')
        .set(bearer(alice))
        .send(sendBody({ sender: `hello@${name}` }))
        .expect(201);
      const deferred = await waitForStatus(t.http, alice, body.id, 'deferred');

      expect(deferred.statusHistory.at(-1).detail).toBe(
        `The DKIM key of sending domain ${sealed.id} does not decrypt: DATA_ENCRYPTION_KEY is not the one it was stored with`,
      );
      expect(sink.acceptedFor(body.id)).toEqual([]);
    },
    TIMEOUT,
  );
});
