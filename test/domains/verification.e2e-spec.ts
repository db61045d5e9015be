// POST /domains/{id}/verify (SPEC §9) against a real DNS server on loopback (dns2), reached through
// DNS_SERVERS: the record the API told us to publish verifies the domain; a missing or wrong one
// leaves it pending naming the record; a failing or silent server answers in bounded time, never a 500.
import { randomUUID } from 'node:crypto';
import { appWithDns } from '../support/dns-server';
import { bearer, newUserId } from '../support/tokens';

interface DnsRecord { type: string; name: string; value: string; purpose: string }

describe('POST /domains/{id}/verify', () => {
  const { t, dns } = appWithDns();
  beforeEach(() => {
    dns.mode = 'answer';
  });

  const userId = newUserId('verify');
  const register = async () => (await t.http.post('/domains').set(bearer(userId)).send({ name: `v${randomUUID().slice(0, 8)}.example` }).expect(201)).body;
  const verify = async (id: string) => (await t.http.post(`/domains/${id}/verify`).set(bearer(userId)).expect(200)).body;
  const dkimOf = (domain: { dnsRecords: DnsRecord[] }) => domain.dnsRecords.find((r) => r.purpose === 'dkim')!;
  const publish = (domain: { dnsRecords: DnsRecord[] }) => dns.publish(dkimOf(domain).name, dkimOf(domain).value);

  it('verifies a domain whose DKIM record is published as given (in 255-byte strings), and keeps it verified', async () => {
    const domain = await register();
    publish(domain);
    expect(Buffer.byteLength(dkimOf(domain).value)).toBeGreaterThan(255);

    const verified = await verify(domain.id);

    expect(dns.queries).toContain(dkimOf(domain).name);
    expect(verified).toEqual({ ...domain, status: 'verified', verifiedAt: expect.any(String), missing: [] });
    expect(new Date(verified.verifiedAt).toISOString()).toBe(verified.verifiedAt);
    expect((await t.http.get(`/domains/${domain.id}`).set(bearer(userId)).expect(200)).body).toEqual({ ...domain, status: 'verified', verifiedAt: verified.verifiedAt });
    // A second check that finds it again: still verified, since the first time.
    expect(await verify(domain.id)).toEqual(verified);
  });

  it.each<[string, (domain: { dnsRecords: DnsRecord[] }, other: { dnsRecords: DnsRecord[] }) => void, RegExp]>([
    ['no record', () => undefined, /^no TXT record at mr\w+\._domainkey\./],
    ["another domain's key", (domain, other) => dns.publish(dkimOf(domain).name, dkimOf(other).value), /is not the DKIM record of this domain's key$/],
    ['the key cut short', (domain) => dns.publish(dkimOf(domain).name, dkimOf(domain).value.slice(0, -8)), /is not the DKIM record/],
    ['the key beside another record', (domain) => dns.publish(dkimOf(domain).name, dkimOf(domain).value, 'v=spf1 -all'), /^2 TXT records at .*, one of them the key: publish the key record alone$/],
  ])('leaves a domain with %s pending, naming the DKIM record and why', async (_, arrange, reason) => {
    const [domain, other] = [await register(), await register()];
    arrange(domain, other);

    const answer = await verify(domain.id);

    expect(answer).toEqual({ ...domain, missing: [{ ...dkimOf(domain), reason: expect.stringMatching(reason) }] });
    expect(answer.missing[0].reason).toContain(dkimOf(domain).name);
  });

  it('makes a verified domain pending again once its record is gone', async () => {
    const domain = await register();
    publish(domain);
    expect((await verify(domain.id)).status).toBe('verified');

    dns.unpublish(dkimOf(domain).name);
    const answer = await verify(domain.id);

    expect(answer).toMatchObject({ status: 'pending', verifiedAt: null, missing: [{ purpose: 'dkim', reason: expect.stringMatching(/^no TXT record/) }] });
  });

  it('answers a DNS failure (SERVFAIL) with the reason: a pending domain stays pending, a verified one verified', async () => {
    const [pending, verified] = [await register(), await register()];
    publish(verified);
    const before = await verify(verified.id);
    dns.mode = 'servfail';

    const answers = [await verify(pending.id), await verify(verified.id)];

    const reason = 'the DNS server reported a failure (SERVFAIL)';
    expect(answers).toEqual([
      { ...pending, missing: [{ ...dkimOf(pending), reason }] },
      { ...before, missing: [{ ...dkimOf(verified), reason }] },
    ]);
  });

  it('answers within its 5 s deadline when the DNS server never answers, pending with the reason', async () => {
    const domain = await register();
    publish(domain);
    dns.mode = 'silent';
    const started = Date.now();

    const answer = await verify(domain.id);

    expect(Date.now() - started).toBeLessThan(7_000);
    expect(answer).toEqual({ ...domain, missing: [{ ...dkimOf(domain), reason: 'no DNS server answered within 5 s' }] });
  }, 15_000);

  it('answers when the DNS server is down (nothing listens), pending with the reason', async () => {
    const domain = await register();
    publish(domain);
    await dns.stop();

    const response = await t.http.post(`/domains/${domain.id}/verify`).set(bearer(userId));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...domain, missing: [{ ...dkimOf(domain), reason: 'the DNS server could not be reached (connection refused)' }] });
  }, 15_000);
});
