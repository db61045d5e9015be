import { AppConfig } from '../../platform/config/app-config';
import { MAX_SOURCE_ADDRESSES } from '../../platform/config/direct-delivery';
import { DnsRecords } from './dns-records';
import { spfAdvice } from './recommended-records';

const SECRET = 'a-secret-of-at-least-thirty-two-characters!';
const domain = { name: 'example.org', selector: 'mr1', publicKey: 'MIIBIjAN' };
const recordsUnder = (env: Record<string, string>) =>
  new DnsRecords(AppConfig.fromEnvironment({ JWT_SECRET: SECRET, ...env }));
const spfValue = (env: Record<string, string>) =>
  recordsUnder(env)
    .for(domain)
    .find((record) => record.purpose === 'spf')!.value;

describe('the suggested SPF record (docs/delivery-and-deliverability.md#sending-domains-and-dkim)', () => {
  it.each([
    ['the outbox: the domain’s own MX hosts', {}, 'v=spf1 mx ~all'],
    ['a relay named by host', { SMTP_URL: 'smtp://relay.example.net:587' }, 'v=spf1 a:relay.example.net ~all'],
    ['a relay named by IPv6 address', { SMTP_URL: 'smtp://[2001:db8::25]:25' }, 'v=spf1 ip6:2001:db8::25 ~all'],
    [
      'direct delivery from the system’s addresses: those of the EHLO name',
      { SMTP_URL: 'direct', DELIVERY_HELO_NAME: 'Out.Mailroom.example' },
      'v=spf1 a:out.mailroom.example ~all',
    ],
    [
      'direct delivery without DELIVERY_HELO_NAME: PUBLIC_URL’s host, which EHLO says',
      { SMTP_URL: 'direct', PUBLIC_URL: 'https://mail.example.com' },
      'v=spf1 a:mail.example.com ~all',
    ],
    [
      'direct delivery bound to source addresses: each of them, in order',
      { SMTP_URL: 'direct', DELIVERY_HELO_NAME: 'out.example', DELIVERY_SOURCE_ADDRESSES: '192.0.2.10, 2001:db8::10' },
      'v=spf1 ip4:192.0.2.10 ip6:2001:db8::10 ~all',
    ],
  ])('names %s', (_, env, value) => {
    expect(spfValue(env)).toBe(value);
  });

  it(`names every one of the most source addresses DELIVERY_SOURCE_ADDRESSES takes (${MAX_SOURCE_ADDRESSES})`, () => {
    const addresses = Array.from({ length: MAX_SOURCE_ADDRESSES }, (_, i) => `198.51.100.${i + 1}`);
    const records = recordsUnder({ SMTP_URL: 'direct', DELIVERY_SOURCE_ADDRESSES: addresses.join(',') });
    expect(records.spfMechanisms).toEqual(addresses.map((address) => `ip4:${address}`));
  });

  describe('merged into what DNS holds', () => {
    const direct = recordsUnder({ SMTP_URL: 'direct', DELIVERY_SOURCE_ADDRESSES: '192.0.2.10,192.0.2.11' });
    const spf = direct.for(domain).find((record) => record.purpose === 'spf')!;
    const advise = (...records: string[]) => spfAdvice(spf, direct.spfMechanisms, { records });

    it('asks nothing when the one record names every source address', () => {
      expect(advise('v=spf1 include:_spf.google.com ip4:192.0.2.11 +ip4:192.0.2.10 -all')).toBeUndefined();
    });

    it('adds the addresses it lacks, before the all term, naming them', () => {
      expect(advise('v=spf1 include:_spf.google.com ip4:192.0.2.10 ~all')).toEqual({
        ...spf,
        value: 'v=spf1 include:_spf.google.com ip4:192.0.2.10 ip4:192.0.2.11 ~all',
        reason: expect.stringMatching(/does not name ip4:192\.0\.2\.11; .* with ip4:192\.0\.2\.11 added$/),
      });
    });

    it('merges two records into one, adding what neither names', () => {
      expect(advise('v=spf1 ip4:192.0.2.10 -all', 'v=spf1 mx ~all')).toEqual({
        ...spf,
        value: 'v=spf1 mx ip4:192.0.2.10 ip4:192.0.2.11 -all',
        reason: expect.stringMatching(
          /^2 SPF records at example\.org, .*which merges them and adds ip4:192\.0\.2\.11$/,
        ),
      });
    });
  });
});
