import { TrustedProxies } from '../config/trusted-proxies';
import { clientAddress, countedAddress } from './client-address';

describe('clientAddress', () => {
  const proxies = TrustedProxies.parse('10.0.0.0/8,fd00::/8');

  it('is the TCP peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.7', '198.51.100.1', TrustedProxies.none)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7', undefined, TrustedProxies.none)).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy (a spoof changes nothing)', () => {
    expect(clientAddress('203.0.113.7', '198.51.100.1', proxies)).toBe('203.0.113.7');
    expect(clientAddress('203.0.113.7', '10.0.0.5', proxies)).toBe('203.0.113.7');
  });

  it('behind trusted proxies, is the right-most X-Forwarded-For entry that is not itself trusted', () => {
    // The client wrote 1.1.1.1 itself; the first proxy appended 198.51.100.1, the second 10.0.0.2.
    expect(clientAddress('10.0.0.3', '1.1.1.1, 198.51.100.1, 10.0.0.2', proxies)).toBe('198.51.100.1');
    expect(clientAddress('::ffff:10.0.0.3', ['1.1.1.1', '198.51.100.1'], proxies)).toBe('198.51.100.1');
    expect(clientAddress('fd00::1', '2001:db8::1', proxies)).toBe('2001:db8::1');
    expect(clientAddress('10.0.0.3', '::ffff:198.51.100.1', proxies)).toBe('198.51.100.1');
  });

  it('stops at the hop that gave an entry that is no address, and is the proxy itself without the header', () => {
    expect(clientAddress('10.0.0.3', 'unknown', proxies)).toBe('10.0.0.3');
    expect(clientAddress('10.0.0.3', '198.51.100.1, garbage, 10.0.0.2', proxies)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.3', undefined, proxies)).toBe('10.0.0.3');
  });
});

describe('countedAddress', () => {
  it('counts an IPv6 client by its /64, and IPv4-mapped IPv6 as IPv4', () => {
    expect(countedAddress('2001:db8:1:2::1')).toBe(countedAddress('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(countedAddress('2001:db8:1:2::1')).not.toBe(countedAddress('2001:db8:1:3::1'));
    expect(countedAddress('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(countedAddress('192.0.2.1')).not.toBe(countedAddress('192.0.2.2'));
  });
});
