import { isPublicAddress, literalAddress } from './public-address';

describe(isPublicAddress.name, () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['loopback', '127.0.0.1'],
    ['IPv6 loopback', '::1'],
    ['private', '10.1.2.3'],
    ['private', '192.168.0.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['CGNAT', '100.64.0.1'],
    ['multicast', '224.0.0.1'],
    ['unique-local', 'fd00::1'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-compatible', '::7f00:1'],
    ['NAT64', '64:ff9b::a00:1'],
    ['unspecified', '0.0.0.0'],
    ['not an address', 'example.com'],
  ])('%s %s is not public', (_kind, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe(literalAddress.name, () => {
  it('reads an IPv4 or bracketed IPv6 host, and nothing from a name', () => {
    expect(literalAddress(new URL('http://10.0.0.1:8080/hook'))).toBe('10.0.0.1');
    expect(literalAddress(new URL('https://[::1]/hook'))).toBe('::1');
    expect(literalAddress(new URL('https://hooks.example.com/hook'))).toBeUndefined();
  });
});
