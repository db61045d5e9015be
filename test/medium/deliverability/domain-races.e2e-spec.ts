// Sending domains under concurrent requests (docs/api.md#routes, docs/delivery-and-deliverability.md), against a real DNS server on loopback
// (dns2): a verify racing a delete never brings the domain back nor answers 500; two users'
// registrations of one name verify and go independently, each by its own key.
import { randomUUID } from 'node:crypto';
import { appWithDns } from '../../support/dns-server';
import { bearer, newUserId } from '../../support/tokens';

interface DnsRecord {
  type: string;
  name: string;
  value: string;
  purpose: string;
}
const dkimOf = (domain: { dnsRecords: DnsRecord[] }) => domain.dnsRecords.find((r) => r.purpose === 'dkim')!;

describe('sending domains under concurrent requests', () => {
  const { t, dns } = appWithDns();

  const register = async (userId: string, name: string) =>
    (await t.http.post('/domains').set(bearer(userId)).send({ name }).expect(201)).body;

  it('answers a verify racing a delete with 200 or 404, never 500, and the deleted domain stays deleted', async () => {
    const userId = newUserId('verify-delete');
    const domains = await Promise.all(
      Array.from({ length: 20 }, () => register(userId, `race-${randomUUID().slice(0, 8)}.example`)),
    );
    for (const domain of domains) dns.publish(dkimOf(domain).name, dkimOf(domain).value);

    const outcomes = await Promise.all(
      domains.map(async (domain) => {
        const [verify, remove] = await Promise.all([
          t.http.post(`/domains/${domain.id}/verify`).set(bearer(userId)),
          t.http.delete(`/domains/${domain.id}`).set(bearer(userId)),
        ]);
        return {
          verify: verify.status,
          remove: remove.status,
          problem: verify.status === 404 ? verify.headers['content-type'] : undefined,
        };
      }),
    );
    for (const outcome of outcomes) {
      expect(outcome.remove).toBe(204);
      expect([200, 404]).toContain(outcome.verify);
      if (outcome.verify === 404) expect(outcome.problem).toMatch(/^application\/problem\+json/);
    }
    // Every one is gone, whichever request came first.
    expect((await t.http.get('/domains').set(bearer(userId)).expect(200)).body.domains).toEqual([]);
    const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM sending_domains WHERE user_id = $1`, [
      userId,
    ]);
    expect(count).toBe(0);
  });

  it("verifies two users' registrations of one name each by its own key, concurrently, and deletes one without the other", async () => {
    const [alice, bob] = [newUserId('alice'), newUserId('bob')];
    const name = `shared-${randomUUID().slice(0, 8)}.example`;
    const [a, b] = await Promise.all([register(alice, name), register(bob, name)]);
    expect(dkimOf(a).name).not.toBe(dkimOf(b).name);
    // Only Alice's key is published at first: Bob's registration must not verify by it.
    dns.publish(dkimOf(a).name, dkimOf(a).value);
    const [va, vb] = await Promise.all([
      t.http.post(`/domains/${a.id}/verify`).set(bearer(alice)).expect(200),
      t.http.post(`/domains/${b.id}/verify`).set(bearer(bob)).expect(200),
    ]);
    expect([va.body.status, vb.body.status]).toEqual(['verified', 'pending']);
    // Bob's verify of Alice's id is 404 and changes nothing of hers.
    await t.http.post(`/domains/${a.id}/verify`).set(bearer(bob)).expect(404);
    await t.http.delete(`/domains/${a.id}`).set(bearer(bob)).expect(404);

    dns.publish(dkimOf(b).name, dkimOf(b).value);
    expect((await t.http.post(`/domains/${b.id}/verify`).set(bearer(bob)).expect(200)).body.status).toBe('verified');
    await t.http.delete(`/domains/${a.id}`).set(bearer(alice)).expect(204);
    expect((await t.http.get(`/domains/${b.id}`).set(bearer(bob)).expect(200)).body).toMatchObject({
      name,
      status: 'verified',
    });
    await t.http.get(`/domains/${a.id}`).set(bearer(alice)).expect(404);
  });
});
