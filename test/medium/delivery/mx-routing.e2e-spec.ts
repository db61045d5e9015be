import { isAddressFailure } from '../../../src/delivery/attempt-decision';
import { MxRouting } from '../../../src/delivery/direct/mx-routing';
import { TestDnsServer } from '../../support/dns-server';

// docs/delivery-and-deliverability.md#direct-delivery, routing: a real DNS server on loopback
// answering MX, A and AAAA queries (and NXDOMAIN for names it does not know), read through
// DNS_SERVERS as direct delivery reads it.
describe('MX routing through DNS_SERVERS', () => {
  const dns = new TestDnsServer();
  let routing: MxRouting;

  beforeAll(async () => {
    routing = new MxRouting([await dns.start()]);
    dns.publishMx(
      'pref.test',
      { preference: 20, exchange: 'backup.pref.test' },
      { preference: 10, exchange: 'b.pref.test' },
      { preference: 10, exchange: 'a.pref.test' },
    );
    dns.publishMx('null.test', { preference: 0, exchange: '.' });
    dns.publishAddress('bare.test', '127.0.0.9', '::1');
    dns.publishAddress('mx.pref.test', '127.0.0.2');
    // A name that exists (it has a TXT record) with neither MX nor address.
    dns.publish('nothing.test', 'v=spf1 -all');
  });
  afterAll(() => dns.stop());

  it('orders MX hosts by preference, shuffling equal ones, and names their site', async () => {
    // The draws go to the records as published: backup (20), b (10), a (10).
    const routeWith = (draws: number[]) => new MxRouting([dns.address], () => draws.shift()!).route('pref.test');

    const first = await routeWith([0.5, 0.1, 0.9]);
    const second = await routeWith([0.5, 0.9, 0.1]);

    expect(first).toEqual({
      hosts: ['b.pref.test', 'a.pref.test', 'backup.pref.test'],
      site: 'a.pref.test,b.pref.test,backup.pref.test',
    });
    expect(second).toEqual({
      hosts: ['a.pref.test', 'b.pref.test', 'backup.pref.test'],
      site: 'a.pref.test,b.pref.test,backup.pref.test',
    });
  });

  it("falls back to the domain's own address when it has no MX (RFC 5321 §5.1)", async () => {
    expect(await routing.route('bare.test')).toEqual({ hosts: ['bare.test'], site: 'bare.test' });
    expect(await routing.addressesOf('bare.test')).toEqual(['127.0.0.9', '::1']);
  });

  it('fails a null MX and a domain that does not exist for good, as address failures', async () => {
    const nullMx = await routing.route('null.test');
    const nxdomain = await routing.route('nowhere.test');
    const nothing = await routing.route('nothing.test');

    expect(nullMx).toEqual({
      failure: { reply: expect.stringMatching(/^550 5\.1\.10 .*null\.test.*null MX/), permanent: true },
    });
    expect(nxdomain).toEqual({
      failure: { reply: expect.stringMatching(/^550 5\.1\.2 .*nowhere\.test does not exist/), permanent: true },
    });
    expect(nothing).toEqual({
      failure: {
        reply: expect.stringMatching(/^550 5\.1\.2 .*nothing\.test has no MX and no address/),
        permanent: true,
      },
    });
    for (const route of [nullMx, nxdomain, nothing])
      expect(isAddressFailure((route as { failure: { reply: string } }).failure.reply, 'RCPT TO')).toBe(true);
  });

  it('defers on a DNS failure (SERVFAIL)', async () => {
    dns.mode = 'servfail';
    try {
      expect(await routing.route('pref.test')).toEqual({
        failure: { reply: expect.stringMatching(/^451 4\.4\.3 The MX look-up of pref\.test failed/), permanent: false },
      });
    } finally {
      dns.mode = 'answer';
    }
  });

  it('gives no address for a host that has none, so that the next is tried', async () => {
    expect(await routing.addressesOf('mx.pref.test')).toEqual(['127.0.0.2']);
    expect(await routing.addressesOf('missing.pref.test')).toEqual([]);
  });

  it("keeps a domain's MX answer (or its non-existence) for a while, one query for a burst, and asks again after a failure", async () => {
    let now = 0;
    const kept = new MxRouting([dns.address], Math.random, 60_000, () => now);
    const asked = (name: string) => dns.queries.filter((query) => query.toLowerCase() === name).length;
    const [pref, nowhere] = [asked('pref.test'), asked('nowhere.test')];

    await Promise.all([kept.route('pref.test'), kept.route('pref.test'), kept.route('nowhere.test')]);
    now = 59_999;
    await kept.route('pref.test');
    expect(await kept.route('nowhere.test')).toEqual({ failure: expect.objectContaining({ permanent: true }) });
    expect([asked('pref.test') - pref, asked('nowhere.test') - nowhere]).toEqual([1, 1]);

    now = 60_000;
    await kept.route('pref.test');
    expect(asked('pref.test') - pref).toBe(2);

    // A failed look-up is not kept: the next delivery asks again.
    const other = new MxRouting([dns.address], Math.random, 60_000, () => now);
    dns.mode = 'servfail';
    try {
      expect(await other.route('null.test')).toEqual({ failure: expect.objectContaining({ permanent: false }) });
    } finally {
      dns.mode = 'answer';
    }
    expect(await other.route('null.test')).toEqual({ failure: expect.objectContaining({ permanent: true }) });
  });
});
