import ipaddr from 'ipaddr.js';

/** Who is trusted to say where a request came from: TRUST_PROXY's proxies (TrustedProxies, in config). */
export interface ProxyTrust {
  trusts(address: string): boolean;
}

/** An IP address as sockets and proxies write them: IPv4 in four decimal parts (`127.1` and `0x7f.0.0.1` are not). */
function isAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

/** What a client address is written as: IPv4-mapped IPv6 as its IPv4, IPv6 in its short form. */
function normalized(address: string): string {
  return isAddress(address) ? ipaddr.process(address).toString() : address;
}

/**
 * The address a request comes from (docs/configuration.md), the one place that decides it: the TCP peer, unless
 * that is a trusted proxy; then the right-most X-Forwarded-For entry that is not itself trusted,
 * since each proxy appends the address it was reached from and only entries appended by our own
 * proxies can be believed (whatever is left of them the client wrote). An entry that is no address
 * at all stops the walk at the hop that gave it. From an untrusted peer the header is ignored.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  proxies: ProxyTrust,
): string {
  let client = peer ?? '';
  if (!proxies.trusts(client) || forwardedFor === undefined) return normalized(client);
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let i = hops.length - 1; i >= 0 && proxies.trusts(client); i--) {
    const hop = hops[i].trim();
    if (!isAddress(hop)) break;
    client = hop;
  }
  return normalized(client);
}

/** A request's client address: its socket's peer, and X-Forwarded-For when the peer is a trusted proxy. */
export function clientAddressOfRequest(
  request: { socket: { remoteAddress?: string }; headers: Record<string, string | string[] | undefined> },
  proxies: ProxyTrust,
): string {
  return clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], proxies);
}

/**
 * What per-address rules count a client as: an IPv4 address itself, an IPv6 address its /64 (one
 * site's prefix: a client given a /64 has 2^64 addresses to rotate through), so that two addresses
 * of one /64 share a budget. IPv4-mapped IPv6 counts as the IPv4 it carries.
 */
export function countedAddress(address: string): string {
  if (!isAddress(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const prefix = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}
