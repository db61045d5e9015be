// POST /domains/{id}/verify (docs/delivery-and-deliverability.md) against a real DNS server on loopback (dns2), reached through
// DNS_SERVERS: the record the API told us to publish verifies the domain; a missing or wrong one
// leaves it pending naming the record; a failing or silent server answers in bounded time, never a 500.
import { randomUUID } from 'node:crypto';
import { appWithDns } from '../../support/dns-server';
import { bearer, newUserId } from '../../support/tokens';

interface DnsRecord {
  type: string;
  name: string;
  host: string;
  zone: string;
  value: string;
  ttl: number;
  purpose: string;
  required: boolean;
}

describe('POST /domains/{id}/verify', () => {
  const { t, dns } = appWithDns();
  beforeEach(() => {
    dns.mode = 'answer';
  });

  const userId = newUserId('verify');
  const register = async () =>
    (
      await t.http
        .post('/domains')
        .set(bearer(userId))
        .send({ name: `v${randomUUID().slice(0, 8)}.example` })
        .expect(201)
    ).body;
  const verify = async (id: string) =>
    (await t.http.post(`/domains/${id}/verify`).set(bearer(userId)).expect(200)).body;
  const dkimOf = (domain: { dnsRecords: DnsRecord[] }) => domain.dnsRecords.find((r) => r.purpose === 'dkim')!;
  const publish = (domain: { dnsRecords: DnsRecord[] }) => dns.publish(dkimOf(domain).name, dkimOf(domain).value);
  const spfOf = (domain: { dnsRecords: DnsRecord[] }) => domain.dnsRecords.find((r) => r.purpose === 'spf')!;
  const dmarcOf = (domain: { dnsRecords: DnsRecord[] }) => domain.dnsRecords.find((r) => r.purpose === 'dmarc')!;
  /** verify's advice on the recommended records when DNS has neither (or failed to say, with `reason`). */
  const unpublished = (domain: { name: string; dnsRecords: DnsRecord[] }, reason?: string) => [
    { ...spfOf(domain), reason: reason ?? `no SPF record at ${domain.name}` },
    { ...dmarcOf(domain), reason: reason ?? `no DMARC record at _dmarc.${domain.name}` },
  ];

  it('verifies a domain whose DKIM record is published as given (in 255-byte strings), and keeps it verified', async () => {
    const domain = await register();
    publish(domain);
    expect(Buffer.byteLength(dkimOf(domain).value)).toBeGreaterThan(255);

    const verified = await verify(domain.id);

    expect(dns.queries).toContain(dkimOf(domain).name);
    expect(verified).toEqual({
      ...domain,
      status: 'verified',
      verifiedAt: expect.any(String),
      missing: [],
      recommended: unpublished(domain),
    });
    expect(new Date(verified.verifiedAt).toISOString()).toBe(verified.verifiedAt);
    expect((await t.http.get(`/domains/${domain.id}`).set(bearer(userId)).expect(200)).body).toEqual({
      ...domain,
      status: 'verified',
      verifiedAt: verified.verifiedAt,
    });
    // A second check that finds it again: still verified, since the first time.
    expect(await verify(domain.id)).toEqual(verified);
  });

  it.each<[string, (domain: { dnsRecords: DnsRecord[] }, other: { dnsRecords: DnsRecord[] }) => void, RegExp]>([
    ['no record', () => undefined, /^no TXT record at mr\w+\._domainkey\./],
    [
      "another domain's key",
      (domain, other) => dns.publish(dkimOf(domain).name, dkimOf(other).value),
      /is not the DKIM record of this domain's key$/,
    ],
    [
      'the key cut short',
      (domain) => dns.publish(dkimOf(domain).name, dkimOf(domain).value.slice(0, -8)),
      /is not the DKIM record/,
    ],
    [
      'the key beside another record',
      (domain) => dns.publish(dkimOf(domain).name, dkimOf(domain).value, 'v=spf1 -all'),
      /^2 TXT records at .*, one of them the key: publish the key record alone$/,
    ],
  ])('leaves a domain with %s pending, naming the DKIM record and why', async (_, arrange, reason) => {
    const [domain, other] = [await register(), await register()];
    arrange(domain, other);

    const answer = await verify(domain.id);

    expect(answer).toEqual({
      ...domain,
      missing: [{ ...dkimOf(domain), reason: expect.stringMatching(reason) }],
      recommended: unpublished(domain),
    });
    expect(answer.missing[0].reason).toContain(dkimOf(domain).name);
  });

  it('makes a verified domain pending again once its record is gone', async () => {
    const domain = await register();
    publish(domain);
    expect((await verify(domain.id)).status).toBe('verified');

    dns.unpublish(dkimOf(domain).name);
    const answer = await verify(domain.id);

    expect(answer).toMatchObject({
      status: 'pending',
      verifiedAt: null,
      missing: [{ purpose: 'dkim', reason: expect.stringMatching(/^no TXT record/) }],
    });
  });

  it('says which records are required, with each host relative to the domain, and with all three published as given recommends nothing', async () => {
    const domain = await register();
    expect(domain.dnsRecords.map((r: DnsRecord) => [r.purpose, r.required, r.host, r.zone, r.ttl])).toEqual([
      ['dkim', true, `${domain.dkim.selector}._domainkey`, domain.name, 3600],
      ['spf', false, '@', domain.name, 3600],
      ['dmarc', false, '_dmarc', domain.name, 3600],
    ]);
    for (const record of domain.dnsRecords as DnsRecord[]) {
      expect(record.host === '@' ? record.zone : `${record.host}.${record.zone}`).toBe(record.name);
      dns.publish(record.name, record.value);
    }

    expect(await verify(domain.id)).toMatchObject({ status: 'verified', missing: [], recommended: [] });
  });

  it("merges an SPF record of the user's own with ours, since a name may have only one; the merged one satisfies verify", async () => {
    const domain = await register();
    publish(domain);
    dns.publish(dmarcOf(domain).name, 'v=DMARC1; p=quarantine');
    dns.publish(domain.name, 'google-site-verification=abc', 'v=spf1 include:_spf.google.com ~all');

    const answer = await verify(domain.id);

    // No SMTP_URL here: our mechanism is `mx`, the domain's own mail hosts.
    const merged = 'v=spf1 include:_spf.google.com mx ~all';
    expect(answer).toMatchObject({ status: 'verified', missing: [] });
    expect(answer.recommended).toEqual([
      {
        ...spfOf(domain),
        value: merged,
        reason: expect.stringMatching(
          /does not name mx; a name may have only one SPF record .*replace it with this value/,
        ),
      },
    ]);

    dns.publish(domain.name, 'google-site-verification=abc', merged);
    expect((await verify(domain.id)).recommended).toEqual([]);
  });

  it('merges two SPF records into one value, and reports more than one DMARC record', async () => {
    const domain = await register();
    publish(domain);
    dns.publish(
      domain.name,
      'v=spf1 include:_spf.google.com -all',
      'v=spf1 mx include:spf.protection.outlook.com ~all',
    );
    dns.publish(dmarcOf(domain).name, 'v=DMARC1; p=none', 'v=DMARC1; p=reject');

    const answer = await verify(domain.id);

    expect(answer.recommended).toEqual([
      {
        ...spfOf(domain),
        value: 'v=spf1 include:_spf.google.com include:spf.protection.outlook.com mx -all',
        reason: expect.stringMatching(/^2 SPF records at .*which merges them$/),
      },
      {
        ...dmarcOf(domain),
        reason: `2 DMARC records at _dmarc.${domain.name}, so receivers apply none (RFC 7489 §6.6.3); keep one`,
      },
    ]);
    expect(answer.status).toBe('verified');
  });

  it('answers a DNS failure (SERVFAIL) with the reason: a pending domain stays pending, a verified one verified', async () => {
    const [pending, verified] = [await register(), await register()];
    publish(verified);
    const before = await verify(verified.id);
    dns.mode = 'servfail';

    const answers = [await verify(pending.id), await verify(verified.id)];

    const reason = 'the DNS server reported a failure (SERVFAIL)';
    expect(answers).toEqual([
      { ...pending, missing: [{ ...dkimOf(pending), reason }], recommended: unpublished(pending, reason) },
      { ...before, missing: [{ ...dkimOf(verified), reason }], recommended: unpublished(verified, reason) },
    ]);
  });

  it('answers within its 5 s deadline when the DNS server never answers, pending with the reason', async () => {
    const domain = await register();
    publish(domain);
    dns.mode = 'silent';
    const started = Date.now();

    const answer = await verify(domain.id);

    expect(Date.now() - started).toBeLessThan(7_000);
    expect(answer).toEqual({
      ...domain,
      missing: [{ ...dkimOf(domain), reason: 'no DNS server answered within 5 s' }],
      recommended: unpublished(domain, 'no DNS server answered within 5 s'),
    });
  }, 15_000);

  it('answers when the DNS server is down (nothing listens), pending with the reason', async () => {
    const domain = await register();
    publish(domain);
    await dns.stop();

    const response = await t.http.post(`/domains/${domain.id}/verify`).set(bearer(userId));

    expect(response.status).toBe(200);
    const reason = 'the DNS server could not be reached (connection refused)';
    expect(response.body).toEqual({
      ...domain,
      missing: [{ ...dkimOf(domain), reason }],
      recommended: unpublished(domain, reason),
    });
  }, 15_000);
});
