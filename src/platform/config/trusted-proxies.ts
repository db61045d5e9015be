import ipaddr from 'ipaddr.js';

/** TRUST_PROXY's entries at most: more proxies than any deployment chains, few enough to check per request. */
export const MAX_TRUSTED_PROXIES = 100;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * The reverse proxies in front (TRUST_PROXY, docs/configuration.md): addresses and CIDR ranges, IPv4 and IPv6.
 * An IPv4-mapped IPv6 peer (`::ffff:10.0.0.1`, what a dual-stack socket reports) is judged as the
 * IPv4 address it carries.
 */
export class TrustedProxies {
  static readonly none = new TrustedProxies([]);

  private constructor(private readonly ranges: Range[]) {}

  /**
   * `10.0.0.1,10.1.0.0/16,fd00::/8`: each entry an address or a CIDR range (IPv4 in four decimal
   * parts only: `0x0a.1` is a host name to a reader, not an address). Throws naming the entry.
   */
  static parse(list: string): TrustedProxies {
    const entries = list.split(',').map((entry) => entry.trim());
    if (entries.length > MAX_TRUSTED_PROXIES)
      throw new Error(`at most ${MAX_TRUSTED_PROXIES} entries, not ${entries.length}`);
    return new TrustedProxies(entries.map(range));
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  /** Whether `address` (as a socket or X-Forwarded-For gives it) is one of the proxies. */
  trusts(address: string): boolean {
    if (this.ranges.length === 0 || !isAddress(address)) return false;
    const parsed = ipaddr.process(address);
    return this.ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  }
}

/** An IP address as sockets and proxies write them: IPv4 in four decimal parts (`127.1` and `0x7f.0.0.1` are not). */
function isAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

function range(entry: string): Range {
  const cidr = entry.includes('/');
  const valid = cidr
    ? ipaddr.IPv4.isValidCIDRFourPartDecimal(entry) || ipaddr.IPv6.isValidCIDR(entry)
    : isAddress(entry);
  if (!valid)
    throw new Error(`"${entry.slice(0, 60)}" is not an IP address or CIDR range (like 10.0.0.0/8 or fd00::/8)`);
  if (cidr) {
    const [base, bits] = ipaddr.parseCIDR(entry);
    // ::ffff:10.0.0.0/104 means 10.0.0.0/8: peers are compared in their IPv4 form.
    if (base.kind() === 'ipv6' && (base as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
      return [(base as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [base, bits];
  }
  const address = ipaddr.process(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
