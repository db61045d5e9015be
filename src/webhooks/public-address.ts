import ipaddr from 'ipaddr.js';

/**
 * Whether an IP address is public unicast, the only kind a webhook may reach (docs/delivery-and-deliverability.md#webhooks's SSRF
 * guard). Loopback, private, link-local (cloud metadata among them), CGNAT, multicast,
 * unique-local, NAT64 and the other special ranges are not; IPv4-mapped IPv6 is judged as the
 * IPv4 it carries. Here, below both the intake (which refuses such a webhook URL at once) and the
 * webhooks' poster (which refuses to connect).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  // ipaddr.js calls the deprecated IPv4-compatible form (::a.b.c.d) unicast: it is not public.
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)) return false;
  return parsed.range() === 'unicast';
}

/** The host of a URL if it is an IP literal ([::1] without its brackets), else undefined. */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(host) ? host : undefined;
}
